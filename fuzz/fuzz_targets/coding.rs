//! The access method's content decoder on any body and any
//! `Content-Encoding`: no panic, never more than the cap, and the same
//! answer whether the body comes whole or in pieces.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules_fetch::policy::{self, Decoder};

const CODINGS: [&str; 8] = [
    "gzip",
    "x-gzip",
    "deflate",
    "br",
    "identity",
    "GZIP, deflate",
    "gzip, gzip",
    "compress",
];

fuzz_target!(|data: &[u8]| {
    let [pick, cap, split, raw @ ..] = data else { return };
    let codings = CODINGS[usize::from(*pick) % CODINGS.len()];
    let cap = usize::from(*cap) * 64;
    let whole = policy::decode(codings, raw, cap);
    if let Ok((body, cut)) = &whole {
        assert!(body.len() <= cap);
        assert!(!cut || body.len() == cap);
    }
    // The same bytes in two pieces.
    let at = usize::from(*split).min(raw.len());
    let pieces = Decoder::new(codings, cap).and_then(|mut d| {
        if d.push(&raw[..at])? {
            return d.finish();
        }
        d.push(&raw[at..])?;
        d.finish()
    });
    assert_eq!(pieces.is_ok(), whole.is_ok(), "{codings} split at {at}");
    if let (Ok(a), Ok(b)) = (&pieces, &whole) {
        assert_eq!(a, b);
    }
});
