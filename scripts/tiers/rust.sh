# Rust: every crate's unit, integration and doc tests.
step "cargo test --workspace"
cargo test --workspace

step "core without default features"
cargo test -p robotrules --no-default-features --lib

step "analysis without its serde feature"
cargo test -p robotrules-analysis --lib
