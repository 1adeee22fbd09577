//! Integration tests.

