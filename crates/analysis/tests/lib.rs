//! Integration tests of `robotrules-analysis`: one binary.

mod catalogue;
mod corpus;
mod hostile;
#[cfg(feature = "serde")]
mod json;
mod lint;
mod util;
