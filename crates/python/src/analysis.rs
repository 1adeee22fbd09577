//! Lint, explain, audit and check: the results of `robotrules-analysis`,
//! as the command line's JSON shows them.

use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use robotrules_analysis::{check_agents, check_url, Catalogue, Check};

use crate::convert::{self, json_to_py, slices, to_json};
use crate::robots::PyRobots;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDiagnostic>()?;
    m.add_class::<PyExplanation>()?;
    m.add_class::<PyStanding>()?;
    m.add_class::<PyCheck>()?;
    m.add_class::<PyCatalogue>()?;
    m.add_function(wrap_pyfunction!(lint, m)?)?;
    m.add_function(wrap_pyfunction!(agent_from_user_agent, m)?)?;
    m.add_function(wrap_pyfunction!(percent_encode, m)?)?;
    Ok(())
}

/// Defines a frozen class holding one result as its JSON value: each
/// top-level field is an attribute (nested objects are dicts), and
/// `to_dict()` returns the whole, equal to the command line's `--json`.
macro_rules! record {
    ($(#[$doc:meta])* $rust:ident, $name:literal) => {
        $(#[$doc])*
        #[pyclass(frozen, name = $name, module = "robotrules._native")]
        pub(crate) struct $rust(pub(crate) serde_json::Value);

        #[pymethods]
        impl $rust {
            fn __getattr__<'py>(
                &self,
                py: Python<'py>,
                name: &str,
            ) -> PyResult<Bound<'py, PyAny>> {
                match self.0.get(name) {
                    Some(v) => json_to_py(py, v),
                    None => Err(PyAttributeError::new_err(format!(
                        "{} has no attribute {name:?}",
                        $name
                    ))),
                }
            }

            fn __dir__(&self) -> Vec<String> {
                let mut names: Vec<String> = self
                    .0
                    .as_object()
                    .map(|o| o.keys().cloned().collect())
                    .unwrap_or_default();
                names.push("to_dict".into());
                names.push("to_json".into());
                names
            }

            /// The result as plain Python objects (`dict`, `list`, `str`,
            /// `int`, `bool`, `None`): the command line's JSON.
            fn to_dict<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, PyAny>> {
                json_to_py(py, &self.0)
            }

            /// The result as a JSON string, as the command line prints it.
            fn to_json(&self) -> String {
                self.0.to_string()
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other.cast::<$rust>().is_ok_and(|o| o.get().0 == self.0)
            }

            fn __repr__(&self) -> String {
                format!("{}({})", $name, self.0)
            }
        }
    };
}

record!(
    /// A lint finding: `code` (`"RT106"`), `name`, `severity`, `line`,
    /// `column`, `span` (`{"start", "end"}`), `message`, `help`,
    /// `related`.
    PyDiagnostic,
    "Diagnostic"
);
record!(
    /// Why a URL is allowed or not: `url`, `path`, `agents`, `named`,
    /// `groups`, `ignored_global_groups`, `matches` (at most 1,000, the
    /// deciding rule among them), `omitted_matches`, `allowed`, `rule`,
    /// `rule_text`, `beyond_fetch_limit`, `as_fetched`, `line_count`,
    /// `warnings`.
    PyExplanation,
    "Explanation"
);
record!(
    /// What a file allows one crawler of a catalogue: the crawler's
    /// `token`, `operator`, `purpose`, `note`, `url` and
    /// `user_initiated`, then `named`,
    /// `via` (`"named"`, `"fallback"`, `"global"` or `"none"`), `lines`,
    /// `access`, `allowed_path`, `disallowed_path`, `crawl_delay` and
    /// `as_fetched`.
    PyStanding,
    "Standing"
);
record!(
    /// One answer to "may this crawler fetch this URL?": `url`, `agents`,
    /// `allowed`, `rule`, `warnings`.
    PyCheck,
    "Check"
);

/// The diagnostics of `body`, in the order the command line prints them.
pub(crate) fn lint_robots(
    py: Python<'_>,
    robots: &PyRobots,
) -> PyResult<Vec<PyDiagnostic>> {
    let (r, body) = (&robots.robots, &robots.body);
    let diagnostics = py.detach(|| robotrules_analysis::lint_robots(r, body));
    diagnostics.iter().map(|d| Ok(PyDiagnostic(to_json(d)?))).collect()
}

/// The explanation of one verdict, with the warnings about the question,
/// as `robotrules explain --json` gives it for a local file.
pub(crate) fn explain(
    robots: &PyRobots,
    agents: &[String],
    url: &str,
) -> PyResult<PyExplanation> {
    let names = slices(agents);
    let e = robotrules_analysis::explain(
        &robots.robots,
        &robots.body,
        &names,
        url,
    );
    let mut warnings = check_agents(&names);
    warnings.extend(check_url(url));
    warnings.extend(e.fetch_limit_warning());
    let mut value = to_json(&e)?;
    value["warnings"] = to_json(&warnings)?;
    Ok(PyExplanation(value))
}

/// The answer for one URL, with its warnings, as `robotrules check
/// --json` gives it for a local file.
pub(crate) fn check(
    robots: &PyRobots,
    agents: &[String],
    url: &str,
) -> PyResult<PyCheck> {
    let names = slices(agents);
    let matcher = robots.robots.matcher(&names);
    let check = Check::new(&matcher, &robots.body, &names, url);
    Ok(PyCheck(to_json(&check)?))
}

/// What the file allows each crawler of `catalogue`.
pub(crate) fn audit(
    py: Python<'_>,
    robots: &PyRobots,
    catalogue: Option<&PyCatalogue>,
) -> PyResult<Vec<PyStanding>> {
    let builtin;
    let catalogue = match catalogue {
        Some(c) => &c.0,
        None => {
            builtin = Catalogue::builtin();
            &builtin
        }
    };
    let (r, body) = (&robots.robots, &robots.body);
    let standings =
        py.detach(|| robotrules_analysis::audit_file(r, body, catalogue));
    standings.iter().map(|s| Ok(PyStanding(to_json(s)?))).collect()
}

/// A list of well-known crawlers (token, operator, purpose) to audit a
/// file for.
#[pyclass(frozen, name = "Catalogue", module = "robotrules._native")]
pub(crate) struct PyCatalogue(pub(crate) Catalogue);

#[pymethods]
impl PyCatalogue {
    /// The built-in catalogue: search engines, AI crawlers and
    /// assistants, SEO tools, archives, ad and link-preview bots.
    #[staticmethod]
    fn builtin() -> PyCatalogue {
        PyCatalogue(Catalogue::builtin())
    }

    /// A catalogue from TOML text (`[[crawler]]` tables with `token`,
    /// `operator`, `purpose`, optional `note`, `url`, `fallback`,
    /// `ignores_global` and `user_initiated`).
    ///
    /// Raises `ValueError` with the line of the first problem.
    #[staticmethod]
    fn from_toml(text: &Bound<'_, PyAny>) -> PyResult<PyCatalogue> {
        let text = convert::text(text, "text")?;
        Catalogue::from_toml(&text)
            .map(PyCatalogue)
            .map_err(|e| PyValueError::new_err(format!("text: {e}")))
    }

    /// A catalogue from a JSON array of crawlers.
    ///
    /// Raises `ValueError` on a malformed catalogue.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyCatalogue> {
        let text = convert::text(text, "text")?;
        Catalogue::from_json(&text)
            .map(PyCatalogue)
            .map_err(|e| PyValueError::new_err(format!("text: {e}")))
    }

    /// The crawlers, as dicts (`token`, `operator`, `purpose`, ...).
    #[getter]
    fn crawlers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &to_json(&self.0.crawlers())?)
    }

    /// The crawlers' product tokens.
    #[getter]
    fn tokens(&self) -> Vec<String> {
        self.0.crawlers().iter().map(|c| c.token.clone()).collect()
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __repr__(&self) -> String {
        format!("<Catalogue: {} crawlers>", self.0.len())
    }
}

/// The diagnostics of a robots.txt body (`bytes` or `str`), as
/// `robotrules lint --json` prints them.
#[pyfunction]
fn lint(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyDiagnostic>> {
    let body = convert::body(body, "body")?;
    let robots = crate::robots::parse_body(py, body, false);
    lint_robots(py, &robots)
}

/// The crawler token that a full `User-Agent` header most likely stands
/// for: one of `known` found in it as a product (the first), else its
/// first product that is not a browser's or platform's, else the product
/// token of the whole string; `None` if there is none. `known` defaults
/// to the built-in catalogue's tokens.
#[pyfunction]
#[pyo3(signature = (user_agent, known = None))]
fn agent_from_user_agent(
    user_agent: &Bound<'_, PyAny>,
    known: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let header = convert::text(user_agent, "user_agent")?;
    let known = match known {
        Some(k) if !k.is_none() => convert::agents(k, "known")?,
        _ => Catalogue::builtin()
            .crawlers()
            .iter()
            .map(|c| c.token.clone())
            .collect(),
    };
    Ok(robotrules_analysis::agent_from_user_agent(
        &header,
        known.iter().map(String::as_str),
    ))
}

/// `url` with the bytes that RFC 3986 requires to be percent-encoded
/// encoded (non-ASCII as UTF-8, spaces, ...), as a crawler requests it;
/// valid escapes are kept.
#[pyfunction]
fn percent_encode(url: &Bound<'_, PyAny>) -> PyResult<String> {
    let url = convert::text(url, "url")?;
    Ok(robotrules_analysis::percent_encode(&url).into_owned())
}
