//! The project's test data, read one way by every crate's tests: the cases
//! of `testdata/*.toml`, and the shared material beside the project root
//! (the conformance vectors of Google's reference and the real corpus).
//!
//! # Example
//!
//! ```
//! let cases = robotrules_testdata::rules();
//! assert!(cases.iter().any(|c| c.agents.is_empty()));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::path::{Path, PathBuf};

use serde::Deserialize;

pub mod warc;

/// One case of `testdata/rules.toml`: a file, a crawler, a URL, and the
/// reference's answer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// A unique name, for messages.
    pub name: String,
    /// The robots.txt body.
    pub robots: String,
    /// The crawler's names, merged as one crawler. Empty: only the `*`
    /// groups apply.
    pub agents: Vec<String>,
    /// The URL to check.
    pub url: String,
    /// The verdict.
    pub allowed: bool,
    /// The reference's matching line, 0 when no rule matched.
    pub line: u32,
}

impl Case {
    /// The agents as string slices.
    pub fn agents(&self) -> Vec<&str> {
        self.agents.iter().map(String::as_str).collect()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

/// The project's `testdata/` folder.
pub fn testdata_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// Reads the cases of `testdata/rules.toml`.
///
/// # Panics
///
/// If the file is missing, is not valid TOML, or a case lacks a field or
/// has an unknown one, or two cases share a name: the data is the test.
pub fn rules() -> Vec<Case> {
    let path = testdata_dir().join("rules.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let cases: Cases = toml::from_str(&text)
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    let mut names: Vec<&str> =
        cases.case.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        panic!("{}: two cases are named {}", path.display(), w[0]);
    }
    cases.case
}

/// The `shared/` folder beside the project root, or `$ROBOTRULES_SHARED`.
///
/// # Panics
///
/// If it has no `conformance/` folder.
pub fn shared_dir() -> PathBuf {
    let dir = match std::env::var_os("ROBOTRULES_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    assert!(
        dir.join("conformance").is_dir(),
        "the shared test material is missing: expected {} (or set \
         ROBOTRULES_SHARED)",
        dir.display()
    );
    dir
}

/// Reads a JSON file of `shared/conformance/`.
///
/// # Panics
///
/// If the file is missing or is not JSON.
pub fn conformance(name: &str) -> Vec<serde_json::Value> {
    let path = shared_dir().join("conformance").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Reads field `name` of a conformance case as bytes: from `name`, or,
/// for bodies that are not UTF-8, from `name_hex`.
///
/// # Panics
///
/// If the case has neither field, or the hex is malformed.
pub fn bytes(case: &serde_json::Value, name: &str) -> Vec<u8> {
    if let Some(s) = case[name].as_str() {
        return s.as_bytes().to_vec();
    }
    let hex = case[format!("{name}_hex")]
        .as_str()
        .unwrap_or_else(|| panic!("case has neither {name} nor {name}_hex"));
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The files of `shared/corpus/real/`, sorted by name.
///
/// # Panics
///
/// If the folder cannot be read.
pub fn corpus_files() -> Vec<PathBuf> {
    files_in(&shared_dir().join("corpus/real"))
}

/// The hostile files of `shared/corpus/real/adversarial/`, sorted by name.
///
/// # Panics
///
/// If the folder cannot be read.
pub fn adversarial_files() -> Vec<PathBuf> {
    files_in(&shared_dir().join("corpus/real/adversarial"))
}

fn files_in(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("reading {}: {e}", root.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// `len` bytes of noise, the same for the same `seed` on every run (an
/// xorshift generator): binary input for robustness tests.
pub fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn rules_load() {
        let cases = super::rules();
        assert!(cases.len() >= 50, "{} cases", cases.len());
    }
}
