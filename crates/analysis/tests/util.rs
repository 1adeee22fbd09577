//! Shared helpers.

use std::path::PathBuf;

/// Every file of the real corpus and its adversarial part.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut files = robotrules_testdata::corpus_files();
    files.extend(robotrules_testdata::adversarial_files());
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
