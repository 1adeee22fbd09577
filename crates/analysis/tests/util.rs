//! Shared helpers.

use std::path::PathBuf;

/// The shared test material (`../shared` beside the work tree).
pub fn shared() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTRULES_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// Every file of the real corpus and its adversarial part.
pub fn corpus_files() -> Vec<PathBuf> {
    let root = shared().join("corpus/real");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("adversarial")] {
        for e in std::fs::read_dir(dir).expect("the shared corpus") {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A name made of letters only (a valid product token), for `i`.
pub fn letters(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}
