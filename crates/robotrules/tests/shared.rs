//! Where the shared test material is, and how its files are read.

use std::path::PathBuf;

/// The `shared/` folder beside the project root, or `$ROBOTRULES_SHARED`.
pub fn dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTRULES_SHARED") {
        return PathBuf::from(dir);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../../../shared");
    assert!(
        dir.join("conformance").is_dir(),
        "the shared test material is missing: expected {} (or set \
         ROBOTRULES_SHARED)",
        dir.display()
    );
    dir
}

/// Reads a JSON file of `shared/conformance/`.
pub fn conformance(name: &str) -> Vec<serde_json::Value> {
    let path = dir().join("conformance").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Reads field `name` as bytes, from `name` or, for bodies that are not
/// UTF-8, from `name_hex`.
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

pub fn str<'a>(case: &'a serde_json::Value, name: &str) -> &'a str {
    case[name].as_str().unwrap_or_else(|| panic!("missing string {name}"))
}
