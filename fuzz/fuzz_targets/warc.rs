//! The bulk job's WARC reader on any bytes, as a plain stream and as a
//! WARC.gz stream (by its magic bytes, and by its name): no panic,
//! offsets inside the input, and every record read again at its offset
//! is the same record.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use robotrules_bulk::warc::Reader;

fuzz_target!(|data: &[u8]| {
    // Named `.gz`, a file is read as gzip members whatever its first
    // bytes.
    for name in ["fuzz", "fuzz.warc.gz"] {
        let mut records = Vec::new();
        for item in Reader::new(data, name) {
            match item {
                Ok(r) => {
                    assert!(r.offset <= data.len() as u64);
                    records.push(r);
                }
                Err(p) => assert!(p.offset <= data.len() as u64),
            }
        }
        let mut again = Reader::new(Cursor::new(data), name);
        for r in records.iter().take(8) {
            let second =
                again.read_at(r.offset, r.ordinal).expect("read again");
            assert_eq!(&second, r);
        }
    }
});
