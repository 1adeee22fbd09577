//! Where the shared test material is, and how its files are read: the
//! project's one loader, `robotrules-testdata`.

pub use robotrules_testdata::{bytes, conformance, shared_dir as dir};

pub fn str<'a>(case: &'a serde_json::Value, name: &str) -> &'a str {
    case[name].as_str().unwrap_or_else(|| panic!("missing string {name}"))
}
