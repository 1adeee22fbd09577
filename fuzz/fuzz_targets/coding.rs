//! The access method's content decoder on any body and any
//! `Content-Encoding`: no panic, never more than the cap, and the same
//! answer whether the body comes whole or in pieces (but for a break
//! past the cap, which pieces may never reach).

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
    match (&whole, &pieces) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{codings} split at {at}"),
        (Ok(_), Err(e)) => panic!("{codings} split at {at}: {e}"),
        // A break just past the cap: in pieces, the content before it may
        // pass the cap first (brotli hands over its content when it needs
        // more input), and the break is then never read.
        (Err(_), Ok((_, cut))) => assert!(cut, "{codings} split at {at}"),
        (Err(_), Err(_)) => {}
    }
});
