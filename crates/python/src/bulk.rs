//! The stages of a bulk job (`robotrules-bulk`'s `dist` module) for the
//! Spark job of the Python package (`robotrules.spark`): plain tuples in
//! and out, so that they travel between Spark's workers. Not a public
//! API: the functions' names start with `_bulk_`.

use std::cmp::Reverse;
use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyString, PyTuple};
use robotrules_analysis::Catalogue;
use robotrules_bulk::dist::{self, Hop, Meta};
use robotrules_bulk::{
    capture, Followed, Options, Origin, Pos, Problem, Schema, Type, Value,
};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_bulk_expand, m)?)?;
    m.add_function(wrap_pyfunction!(_bulk_schema, m)?)?;
    m.add_function(wrap_pyfunction!(_bulk_scan, m)?)?;
    m.add_function(wrap_pyfunction!(_bulk_hop, m)?)?;
    m.add_function(wrap_pyfunction!(_bulk_rows, m)?)?;
    Ok(())
}

/// A catalogue: the built-in one or `text` (TOML, or JSON if `json`),
/// restricted to `agents`.
fn catalogue(
    agents: Vec<String>,
    text: Option<String>,
    json: bool,
) -> PyResult<Catalogue> {
    let full = match text {
        None => Catalogue::builtin(),
        Some(t) => if json {
            Catalogue::from_json(&t)
        } else {
            Catalogue::from_toml(&t)
        }
        .map_err(|e| {
            PyValueError::new_err(format!("invalid catalogue: {e}"))
        })?,
    };
    dist::agents(full, &agents)
        .map_err(|e| PyValueError::new_err(format!("invalid agents: {e}")))
}

type ProblemTuple = (String, u64, &'static str, String);

fn problem(p: Problem) -> ProblemTuple {
    (p.file, p.offset, p.kind.as_str(), p.detail)
}

/// The sources that the command line makes of `inputs` (directories
/// expanded, lists read), in its order: their paths.
#[pyfunction]
fn _bulk_expand(inputs: Vec<PathBuf>) -> PyResult<Vec<String>> {
    let sources = capture::expand(&inputs)
        .map_err(|e| PyOSError::new_err(format!("cannot list inputs: {e}")))?;
    Ok(sources.into_iter().map(|s| s.name()).collect())
}

/// The table's columns: `(name, type)` with type `str`, `i32`, `i64`,
/// `f64` or `bool`.
#[pyfunction]
#[pyo3(signature = (agents, catalogue_text=None, catalogue_json=false))]
fn _bulk_schema(
    agents: Vec<String>,
    catalogue_text: Option<String>,
    catalogue_json: bool,
) -> PyResult<Vec<(String, &'static str)>> {
    let schema =
        Schema::new(&catalogue(agents, catalogue_text, catalogue_json)?);
    Ok(schema
        .columns()
        .iter()
        .map(|c| {
            let kind = match c.kind {
                Type::Str => "str",
                Type::I32 => "i32",
                Type::I64 => "i64",
                Type::F64 => "f64",
                _ => "bool",
            };
            (c.name.clone(), kind)
        })
        .collect())
}

/// One capture's metadata: `(crawl, url, order, source, offset, ordinal,
/// status, location, site, redirect)`; `order` is the selection key
/// (greatest wins).
type MetaTuple = (
    String,
    String,
    (u64, i64, i128, i64),
    u32,
    u64,
    u32,
    Option<u16>,
    Option<String>,
    bool,
    bool,
);

fn meta(m: Meta) -> MetaTuple {
    let (rank, Reverse(pos)) = m.order();
    let redirect = m.is_redirect();
    (
        m.crawl,
        m.url,
        (
            rank,
            -i64::from(pos.source),
            -i128::from(pos.offset),
            -i64::from(pos.ordinal),
        ),
        pos.source,
        pos.offset,
        pos.ordinal,
        m.status,
        m.location,
        m.site,
        redirect,
    )
}

/// Pass one over the file at `path` (source number `index`): every
/// capture's metadata, the problems (named `name`), the file's crawls
/// where they begin (`(offset, ordinal, crawl)`, for `_bulk_rows`).
#[pyfunction]
#[pyo3(signature = (path, index, name, crawl=None))]
fn _bulk_scan(
    py: Python<'_>,
    path: PathBuf,
    index: u32,
    name: String,
    crawl: Option<String>,
) -> (Vec<MetaTuple>, Vec<ProblemTuple>, Vec<CrawlTuple>) {
    py.detach(|| {
        let source = capture::Source::of(path);
        let mut metas = Vec::new();
        let mut problems = Vec::new();
        let last =
            dist::scan(
                &source,
                index,
                crawl.as_deref(),
                &mut |item| match item {
                    Ok(m) => metas.push(meta(m)),
                    Err(mut p) => {
                        p.file.clone_from(&name);
                        problems.push(problem(p));
                    }
                },
            );
        let crawls = last
            .into_iter()
            .map(|(pos, crawl)| (pos.offset, pos.ordinal, crawl))
            .collect();
        (metas, problems, crawls)
    })
}

/// The next step of a redirect chain: `("next", url, hops)` or
/// `("stop", reason, 0)`.
#[pyfunction]
fn _bulk_hop(
    start: &str,
    locations: Vec<Option<String>>,
) -> (&'static str, String, i32) {
    match dist::hop(start, &locations) {
        Hop::Next(url, hops) => ("next", url, hops),
        Hop::Stop(reason) => ("stop", reason.to_string(), 0),
        _ => ("stop", "no_location".to_string(), 0),
    }
}

fn stop(s: &str) -> PyResult<&'static str> {
    Ok(match s {
        "loop" => "loop",
        "too_many" => "too_many",
        "scheme" => "scheme",
        "no_location" => "no_location",
        "not_captured" => "not_captured",
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown redirect stop {s:?}"
            )))
        }
    })
}

/// Where a crawl's captures begin in a file: `(offset, ordinal, crawl)`.
type CrawlTuple = (u64, u32, String);

/// A site's redirect: `(crawl, url, hops, stop, final_url, status)`.
type FollowedTuple =
    (String, String, i32, Option<String>, String, Option<u16>);

/// Where a capture is and the sites it stands for: `(offset, ordinal,
/// [(captures, redirect or None)])`.
type TodoTuple = (u64, u32, Vec<(i32, Option<FollowedTuple>)>);

fn value<'py>(py: Python<'py>, v: Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Str(s) => PyString::new(py, &s).into_any(),
        Value::Int(n) => n.into_pyobject(py)?.into_any(),
        Value::F64(f) => PyFloat::new(py, f).into_any(),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        _ => py.None().into_bound(py),
    })
}

/// Pass two over the file at `path` (named `name`; `crawls` from
/// `_bulk_scan`):
/// the rows of the captures `todo`, as tuples in the schema's order, and
/// the problems.
#[pyfunction]
#[pyo3(signature = (path, name, crawls, todo, agents, catalogue_text=None, catalogue_json=false, lint=false))]
#[allow(clippy::too_many_arguments)]
fn _bulk_rows<'py>(
    py: Python<'py>,
    path: PathBuf,
    name: String,
    crawls: Vec<CrawlTuple>,
    todo: Vec<TodoTuple>,
    agents: Vec<String>,
    catalogue_text: Option<String>,
    catalogue_json: bool,
    lint: bool,
) -> PyResult<(Vec<Bound<'py, PyTuple>>, Vec<ProblemTuple>)> {
    let mut options =
        Options::new(catalogue(agents, catalogue_text, catalogue_json)?);
    options.lint = lint;
    let mut plan = Vec::with_capacity(todo.len());
    for (offset, ordinal, origins) in todo {
        let mut pos = Pos::default();
        pos.offset = offset;
        pos.ordinal = ordinal;
        let mut out = Vec::with_capacity(origins.len());
        for (captures, redirect) in origins {
            let redirect = match redirect {
                None => None,
                Some((crawl, url, hops, stop_, final_url, status)) => {
                    Some(Box::new(Followed {
                        crawl,
                        url,
                        hops,
                        stop: stop_.as_deref().map(stop).transpose()?,
                        final_url,
                        status,
                    }))
                }
            };
            out.push(Origin { captures, redirect });
        }
        plan.push((pos, out));
    }
    let (rows, problems) = py.detach(|| {
        let source = capture::Source::of(path);
        let crawls: Vec<(Pos, String)> = crawls
            .into_iter()
            .map(|(offset, ordinal, crawl)| {
                let mut pos = Pos::default();
                pos.offset = offset;
                pos.ordinal = ordinal;
                (pos, crawl)
            })
            .collect();
        dist::rows(&source, &name, &crawls, plan, &options)
    });
    let rows = rows
        .into_iter()
        .map(|r| {
            let values = r
                .values()
                .into_iter()
                .map(|v| value(py, v))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, values)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((rows, problems.into_iter().map(problem).collect()))
}
