//! Python bindings for robotrules: the extension module
//! `robotrules._native`, built into the `robotrules` wheel by maturin.
//!
//! This crate only converts types. Every verdict comes from the core
//! crate, [`robotrules`]; lint, explain, audit and the answers to checks
//! from [`robotrules_analysis`], serialized with the same serde shapes as
//! the command line's `--json`; fetching, caching and the RFC 9309 status
//! rules from [`robotrules_fetch`]. The Python package around it
//! (`crates/python/python/robotrules/`) adds the drop-in classes for
//! `urllib.robotparser`, Protego and Scrapy, which only adapt those APIs
//! to the native one, and `robotrules.spark`, the Spark job of bulk
//! analysis, whose every stage is `robotrules-bulk`'s.
//!
//! # Building
//!
//! `pip install .` from the repository root (maturin, through
//! `pyproject.toml`), or `maturin build --release`. The wheel is `abi3`:
//! one build serves CPython 3.9 and later. Cargo builds the crate as a
//! library too, so that `cargo clippy`, `cargo test` and `cargo doc` cover
//! it with the rest of the workspace; maturin sets what an extension
//! module needs (it does not link libpython).
//!
//! # Threads
//!
//! Every class is immutable (`frozen`) and `Send + Sync`: one parsed
//! `Robots` or `Matcher` may be shared by any number of threads. Batch
//! checks, parsing a large body and blocking fetches release the GIL.
//!
//! # Untrusted input
//!
//! Arguments of the wrong type raise `TypeError`, and values that cannot
//! be used (a `str` with lone surrogates, a URL that is not absolute where
//! one must be) raise `ValueError`; both name the argument. Bodies of any
//! size are accepted: the core reads at most its `MAX_BODY_LEN` and says so
//! (`Robots.is_truncated`).

#![deny(missing_docs)]

mod analysis;
mod bulk;
mod convert;
mod fetch;
mod robots;

use pyo3::prelude::*;

/// The extension module `robotrules._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    robots::register(m)?;
    analysis::register(m)?;
    fetch::register(m)?;
    bulk::register(m)?;
    m.add("FETCH_LIMIT", robotrules::FETCH_LIMIT)?;
    m.add("MAX_BODY_LEN", robotrules::MAX_BODY_LEN)?;
    m.add("MAX_LINE_LEN", robotrules::MAX_LINE_LEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
