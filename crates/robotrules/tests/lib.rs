//! Integration tests: conformance with the reference, the project's own
//! cases, property tests against a naive matcher, and the real corpus.

mod conformance;
mod corpus;
mod naive;
mod options;
mod properties;
mod rules;
mod shared;
