//! `Robots`, `Matcher`, `Decision` and the parts of a parsed file.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use robotrules::{
    ExtensionValue, MatchOptions, ParseOptions, Robots, Semantics,
};
use robotrules_analysis::RuleRef;

use crate::convert::{self, json_to_py, slices, to_json};

/// Bodies larger than this are parsed with the GIL released.
const DETACH_BODY: usize = 64 * 1024;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRobots>()?;
    m.add_class::<PyMatcher>()?;
    m.add_class::<PyDecision>()?;
    m.add_class::<PyRuleRef>()?;
    m.add_class::<PyGroup>()?;
    m.add_class::<PyAgent>()?;
    m.add_class::<PyRule>()?;
    m.add_class::<PySitemap>()?;
    m.add_class::<PyUnknownDirective>()?;
    m.add_class::<PyExtension>()?;
    m.add_class::<PyLineReport>()?;
    m.add_class::<PyRequestRate>()?;
    m.add_class::<PyVisitTime>()?;
    m.add_function(wrap_pyfunction!(path_of, m)?)?;
    m.add_function(wrap_pyfunction!(escape_pattern, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid_agent, m)?)?;
    m.add_function(wrap_pyfunction!(product_token, m)?)?;
    Ok(())
}

/// Parses `body` into shared rules, releasing the GIL for large bodies.
pub(crate) fn parse_body(
    py: Python<'_>,
    body: Vec<u8>,
    strict: bool,
) -> PyRobots {
    let body: Arc<[u8]> = body.into();
    let options = ParseOptions::new().strict(strict);
    let robots = if body.len() > DETACH_BODY {
        let b = Arc::clone(&body);
        py.detach(move || Robots::parse_with(&b, options))
    } else {
        Robots::parse_with(&body, options)
    };
    PyRobots { robots: Arc::new(robots), body }
}

fn semantics_of(name: &str) -> PyResult<Semantics> {
    match name {
        "longest-match" => Ok(Semantics::LongestMatch),
        "first-match-1996" => Ok(Semantics::FirstMatch1996),
        _ => Err(PyValueError::new_err(format!(
            "semantics must be \"longest-match\" or \"first-match-1996\", \
             not {name:?}"
        ))),
    }
}

/// A parsed robots.txt: immutable, safe to share between threads.
///
/// Build one with `Robots.parse(body)`. Checks give the verdicts of
/// Google's reference parser (RFC 9309): the longest matching rule
/// decides, `allow` wins a tie, and a crawler named by some group ignores
/// the `*` groups.
#[pyclass(frozen, name = "Robots", module = "robotrules._native")]
pub(crate) struct PyRobots {
    pub(crate) robots: Arc<Robots>,
    pub(crate) body: Arc<[u8]>,
}

impl PyRobots {
    pub(crate) fn decide_rule(
        &self,
        agents: &[&str],
        url: &str,
    ) -> PyDecision {
        let decision = self.robots.decide(agents, url);
        PyDecision::of(&decision)
    }
}

#[pymethods]
impl PyRobots {
    /// Parses a robots.txt body (`bytes`, or `str` taken as UTF-8).
    ///
    /// Parsing never fails: lines that mean nothing are reported, not
    /// rejected. With `strict=True`, the reference's accepted typos
    /// (`disalow`, `useragent`, ...) are ignored instead.
    #[staticmethod]
    #[pyo3(signature = (body, *, strict = false))]
    fn parse(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        strict: bool,
    ) -> PyResult<PyRobots> {
        let body = convert::body(body, "body")?;
        Ok(parse_body(py, body, strict))
    }

    /// Returns True if and only if the crawler `agent` may fetch `url`.
    ///
    /// `agent` is the crawler's product token (`"FooBot"`, not a full
    /// `User-Agent` header), or a list of names for a crawler known by
    /// several. `url` is an absolute URL or a path, percent-encoded as it
    /// will be requested.
    fn is_allowed(
        &self,
        agent: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let agents = convert::agents(agent, "agent")?;
        let url = convert::text(url, "url")?;
        Ok(match &agents[..] {
            [one] => self.robots.is_allowed(one, &url),
            many => self.robots.decide(&slices(many), &url).is_allowed(),
        })
    }

    /// The verdict for `url` and the rule that decides it.
    fn decide(
        &self,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<PyDecision> {
        let agents = convert::agents(agents, "agents")?;
        let url = convert::text(url, "url")?;
        Ok(self.decide_rule(&slices(&agents), &url))
    }

    /// A compiled `Matcher` for a crawler known by `agents` (a name or a
    /// list of names), for many checks.
    ///
    /// `ignore_global=True` ignores the `*` groups; `semantics` is
    /// `"longest-match"` (RFC 9309, the default) or `"first-match-1996"`
    /// (the 1996 draft, as `urllib.robotparser` matches).
    #[pyo3(signature = (agents, *, ignore_global = false, semantics = "longest-match"))]
    fn matcher(
        &self,
        py: Python<'_>,
        agents: &Bound<'_, PyAny>,
        ignore_global: bool,
        semantics: &str,
    ) -> PyResult<PyMatcher> {
        let names = convert::agents(agents, "agents")?;
        let options = MatchOptions::new()
            .ignore_global(ignore_global)
            .semantics(semantics_of(semantics)?);
        let robots = Arc::clone(&self.robots);
        let n = names.clone();
        let matcher =
            py.detach(move || robots.matcher_with(&slices(&n), options));
        Ok(PyMatcher {
            matcher,
            agents: names,
            robots: self.clone_ref(),
            options,
        })
    }

    /// The crawler name that a full `User-Agent` header stands for in this
    /// file: the first product of the header, outside comments or with a
    /// version, that some `user-agent` line of the file names, else one
    /// the built-in catalogue names, else the header's first product that
    /// is not a browser's or platform's (`MyBot` in `Mozilla/5.0
    /// (compatible; MyBot/1.0; +https://...)`), else a comment's bare word
    /// that a crawler of the catalogue or the file has, else its leading
    /// token; `None` if it has none. A
    /// browser's or platform's product (`Mozilla`) and the words of the
    /// header's URLs (`https`) never count, even when the file names them;
    /// nor do the middle words of a name of several words (`web` in `Sogou
    /// web spider/4.0`). A product counts by its product token (`archive`
    /// for `archive.org_bot/3.0`), as the file's lines do. `robotrules
    /// check --user-agent` reads headers the same way.
    fn agent_for(
        &self,
        user_agent: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let header = convert::text(user_agent, "user_agent")?;
        Ok(self.agent_for_header(&header))
    }

    /// The diagnostics of the file (`robotrules lint --json`).
    fn lint(
        &self,
        py: Python<'_>,
    ) -> PyResult<Vec<crate::analysis::PyDiagnostic>> {
        crate::analysis::lint_robots(py, self)
    }

    /// Why `url` is allowed or not for the crawler `agents`, line by line
    /// (`robotrules explain --json`).
    fn explain(
        &self,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<crate::analysis::PyExplanation> {
        let agents = convert::agents(agents, "agents")?;
        let url = convert::text(url, "url")?;
        crate::analysis::explain(self, &agents, &url)
    }

    /// The answer for `url`, with warnings about the question: a crawler
    /// name that is not a product token, a URL that is not encoded
    /// (`robotrules check --json`).
    fn check(
        &self,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<crate::analysis::PyCheck> {
        let agents = convert::agents(agents, "agents")?;
        let url = convert::text(url, "url")?;
        crate::analysis::check(self, &agents, &url)
    }

    /// What the file allows each crawler of `catalogue` (default: the
    /// built-in one), as `robotrules audit --json`.
    #[pyo3(signature = (catalogue = None))]
    fn audit(
        &self,
        py: Python<'_>,
        catalogue: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<crate::analysis::PyStanding>> {
        let catalogue = match catalogue {
            Some(c) if !c.is_none() => Some(
                c.cast::<crate::analysis::PyCatalogue>()
                    .map_err(|_| {
                        convert::type_error("catalogue", "a Catalogue", c)
                    })?
                    .get(),
            ),
            _ => None,
        };
        crate::analysis::audit(py, self, catalogue)
    }

    /// The groups of the file, in order.
    #[getter]
    fn groups(&self) -> Vec<PyGroup> {
        self.robots.groups().map(|g| PyGroup::of(&g, &self.robots)).collect()
    }

    /// The rules before any `user-agent` line, which apply to nobody.
    #[getter]
    fn orphan_rules(&self) -> Vec<PyRule> {
        self.robots.orphan_rules().map(|r| PyRule::of(&r)).collect()
    }

    /// The `sitemap` lines, in order.
    #[getter]
    fn sitemaps(&self) -> Vec<PySitemap> {
        self.robots
            .sitemaps()
            .map(|s| PySitemap { line: s.line(), url: s.url_lossy().into() })
            .collect()
    }

    /// The lines whose key Google does not use (`crawl-delay`, `foo`, ...).
    #[getter]
    fn unknown_directives(&self) -> Vec<PyUnknownDirective> {
        self.robots
            .unknown_directives()
            .map(|d| PyUnknownDirective::of(&d))
            .collect()
    }

    /// The typed extensions of the whole file (crawl-delay, request-rate,
    /// visit-time, host, clean-param, content-signal, noindex).
    #[getter]
    fn extensions(&self, py: Python<'_>) -> PyResult<Vec<PyExtension>> {
        self.robots.extensions().map(|e| PyExtension::of(py, &e)).collect()
    }

    /// The preferred host (the first valid `host` line), if any.
    #[getter]
    fn host(&self) -> Option<String> {
        self.robots.extensions().find_map(|e| match e.value() {
            Ok(ExtensionValue::Host(h)) => Some(h.to_string()),
            _ => None,
        })
    }

    /// The reference's report of every line, in order.
    #[getter]
    fn lines(&self) -> Vec<PyLineReport> {
        self.robots.lines().map(PyLineReport).collect()
    }

    /// The report of line `number` (from 1), or `None` (for any integer
    /// that is not a line of the file, negative ones included).
    fn line(
        &self,
        number: &Bound<'_, PyAny>,
    ) -> PyResult<Option<PyLineReport>> {
        if !number.is_instance_of::<pyo3::types::PyInt>() {
            return Err(convert::type_error("number", "an int", number));
        }
        Ok(number
            .extract::<u32>()
            .ok()
            .and_then(|n| self.robots.line(n))
            .map(PyLineReport))
    }

    /// The number of lines, as the reference counts them.
    #[getter]
    fn line_count(&self) -> usize {
        self.robots.line_count()
    }

    /// True if and only if the body was longer than `MAX_BODY_LEN` and was
    /// cut there.
    #[getter]
    fn is_truncated(&self) -> bool {
        self.robots.is_truncated()
    }

    /// The body given to `parse`, all of it (past `MAX_BODY_LEN`, which
    /// `is_truncated` tells, nothing was read).
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, &self.body)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Robots: {} lines, {} groups>",
            self.robots.line_count(),
            self.robots.groups().len()
        )
    }
}

impl PyRobots {
    pub(crate) fn clone_ref(&self) -> PyRobots {
        PyRobots {
            robots: Arc::clone(&self.robots),
            body: Arc::clone(&self.body),
        }
    }

    pub(crate) fn agent_for_header(&self, header: &str) -> Option<String> {
        robotrules_analysis::agent_for_user_agent(&self.robots, header)
    }
}

/// The rules that apply to one crawler, compiled for many checks.
/// Immutable and safe to share between threads.
#[pyclass(frozen, name = "Matcher", module = "robotrules._native")]
pub(crate) struct PyMatcher {
    pub(crate) matcher: robotrules::Matcher,
    pub(crate) agents: Vec<String>,
    pub(crate) robots: PyRobots,
    /// The options it was made with, for the groups it reads.
    pub(crate) options: MatchOptions,
}

#[pymethods]
impl PyMatcher {
    /// Returns True if and only if the crawler may fetch `url`.
    fn is_allowed(&self, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        let url = convert::text(url, "url")?;
        Ok(self.matcher.is_allowed(&url))
    }

    /// The verdict for `url` and the rule that decides it.
    fn decide(&self, url: &Bound<'_, PyAny>) -> PyResult<PyDecision> {
        let url = convert::text(url, "url")?;
        Ok(PyDecision::of(&self.matcher.decide(&url)))
    }

    /// The verdicts for many URLs (any iterable of `str`), as a list of
    /// bools, computed with the GIL released.
    fn is_allowed_many(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<bool>> {
        let matcher = &self.matcher;
        convert::with_texts(py, urls, "urls", |urls| {
            urls.iter().map(|u| matcher.is_allowed(u)).collect()
        })
    }

    /// The decisions for many URLs (any iterable of `str`), computed with
    /// the GIL released.
    fn decide_many(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<PyDecision>> {
        let matcher = &self.matcher;
        convert::with_texts(py, urls, "urls", |urls| {
            urls.iter().map(|u| PyDecision::of(&matcher.decide(u))).collect()
        })
    }

    /// The crawler's names, as given.
    #[getter]
    fn agents(&self) -> Vec<String> {
        self.agents.clone()
    }

    /// The `Robots` this matcher was built from.
    #[getter]
    fn robots(&self) -> PyRobots {
        self.robots.clone_ref()
    }

    /// True if and only if some group names the crawler (so the `*`
    /// groups do not apply).
    #[getter]
    fn is_named(&self) -> bool {
        self.matcher.is_named()
    }

    /// The crawler's `crawl-delay` in seconds, if its groups have one.
    #[getter]
    fn crawl_delay(&self) -> Option<f64> {
        self.matcher.crawl_delay()
    }

    /// The crawler's `request-rate`, if its groups have one.
    #[getter]
    fn request_rate(&self) -> Option<PyRequestRate> {
        self.matcher.request_rate().map(PyRequestRate::of)
    }

    /// The crawler's `visit-time` window, if its groups have one.
    #[getter]
    fn visit_time(&self) -> Option<PyVisitTime> {
        let names = slices(&self.agents);
        let selection = self.robots.robots.select_with(&names, self.options);
        let window = selection.groups().find_map(|g| g.visit_time());
        window.map(PyVisitTime::of)
    }

    /// How much of the site the crawler may fetch: `"allowed"`,
    /// `"partial"`, `"disallowed"` or `"unknown"`, and for `"partial"` a
    /// path of each kind: `(coverage, allowed_path, disallowed_path)`.
    fn coverage(
        &self,
        py: Python<'_>,
    ) -> (&'static str, Option<String>, Option<String>) {
        let matcher = &self.matcher;
        let c = py.detach(|| matcher.coverage());
        (
            c.as_str(),
            c.allowed_witness().map(str::to_string),
            c.disallowed_witness().map(str::to_string),
        )
    }

    /// The number of rules that apply.
    #[getter]
    fn rule_count(&self) -> usize {
        self.matcher.rule_count()
    }

    fn __repr__(&self) -> String {
        format!("<Matcher for {:?}>", self.agents)
    }
}

/// A verdict and the rule that decided it.
#[pyclass(frozen, name = "Decision", module = "robotrules._native")]
pub(crate) struct PyDecision {
    allowed: bool,
    rule: Option<RuleRef>,
}

impl PyDecision {
    pub(crate) fn is_allowed(&self) -> bool {
        self.allowed
    }

    pub(crate) fn of(decision: &robotrules::Decision<'_>) -> PyDecision {
        PyDecision {
            allowed: decision.is_allowed(),
            rule: decision.rule().map(RuleRef::from),
        }
    }
}

#[pymethods]
impl PyDecision {
    /// True if and only if the URL may be fetched.
    #[getter]
    fn allowed(&self) -> bool {
        self.allowed
    }

    /// The deciding rule (the reference's matching line), or `None` when
    /// no rule matches (then the URL is allowed).
    #[getter]
    fn rule(&self) -> Option<PyRuleRef> {
        self.rule.clone().map(PyRuleRef)
    }

    /// `{"allowed": ..., "rule": {...} | None}`, the rule in the shape of
    /// the command line's JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::json!({
            "allowed": self.allowed,
            "rule": to_json(&self.rule)?,
        });
        json_to_py(py, &value)
    }

    fn __repr__(&self) -> String {
        let verdict = if self.allowed { "allowed" } else { "disallowed" };
        match &self.rule {
            Some(r) => format!(
                "<Decision: {verdict} by line {} ({}: {})>",
                r.line,
                r.kind.as_str(),
                r.pattern
            ),
            None => format!("<Decision: {verdict}, no rule matches>"),
        }
    }
}

/// A rule as results report it: where it is, what it says, and the
/// priority it matched with (the `rule` of the command line's JSON).
#[pyclass(frozen, name = "RuleRef", module = "robotrules._native")]
pub(crate) struct PyRuleRef(RuleRef);

#[pymethods]
impl PyRuleRef {
    /// The rule's line, from 1.
    #[getter]
    fn line(&self) -> u32 {
        self.0.line
    }

    /// `"allow"` or `"disallow"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.as_str()
    }

    /// The value as written (invalid UTF-8 replaced).
    #[getter]
    fn pattern(&self) -> String {
        self.0.pattern.clone()
    }

    /// The normalised pattern that paths are matched against.
    #[getter]
    fn normalized(&self) -> String {
        self.0.normalized.clone()
    }

    /// The priority it matched with (the most specific match wins).
    #[getter]
    fn priority(&self) -> usize {
        self.0.priority
    }

    /// True if and only if it matched through the index.html retry.
    #[getter]
    fn index_retry(&self) -> bool {
        self.0.index_retry
    }

    /// The rule as the command line's JSON shows it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &to_json(&self.0)?)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyRuleRef>().is_ok_and(|o| o.get().0 == self.0)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<RuleRef: line {} {}: {}>",
            self.0.line,
            self.0.kind.as_str(),
            self.0.pattern
        )
    }
}

/// A group: `user-agent` lines and the rules that follow them.
#[pyclass(frozen, name = "Group", module = "robotrules._native")]
pub(crate) struct PyGroup {
    robots: Arc<Robots>,
    #[pyo3(get)]
    /// The group's position among the groups, from 0.
    index: usize,
    #[pyo3(get)]
    /// The line of its first `user-agent`.
    line: u32,
    #[pyo3(get)]
    /// Its last line.
    end_line: u32,
}

impl PyGroup {
    fn of(g: &robotrules::Group<'_>, robots: &Arc<Robots>) -> PyGroup {
        PyGroup {
            robots: Arc::clone(robots),
            index: g.index(),
            line: g.line(),
            end_line: g.end_line(),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&robotrules::Group<'_>) -> T) -> T {
        let g = self.robots.groups().nth(self.index);
        // The index was taken from this file's groups.
        f(&g.expect("group index in range"))
    }
}

#[pymethods]
impl PyGroup {
    /// The `user-agent` lines.
    #[getter]
    fn agents(&self) -> Vec<PyAgent> {
        self.with(|g| g.agents().map(|a| PyAgent::of(&a)).collect())
    }

    /// The `allow` and `disallow` rules, in order.
    #[getter]
    fn rules(&self) -> Vec<PyRule> {
        self.with(|g| g.rules().map(|r| PyRule::of(&r)).collect())
    }

    /// The lines of the group whose key Google does not use.
    #[getter]
    fn unknown_directives(&self) -> Vec<PyUnknownDirective> {
        self.with(|g| {
            g.unknown_directives()
                .map(|d| PyUnknownDirective::of(&d))
                .collect()
        })
    }

    /// The typed extensions of the group.
    #[getter]
    fn extensions(&self, py: Python<'_>) -> PyResult<Vec<PyExtension>> {
        self.with(|g| {
            g.extensions().map(|e| PyExtension::of(py, &e)).collect()
        })
    }

    /// The first valid `crawl-delay`, in seconds.
    #[getter]
    fn crawl_delay(&self) -> Option<f64> {
        self.with(|g| g.crawl_delay())
    }

    /// The first valid `request-rate`.
    #[getter]
    fn request_rate(&self) -> Option<PyRequestRate> {
        self.with(|g| g.request_rate().map(PyRequestRate::of))
    }

    /// The first valid `visit-time`.
    #[getter]
    fn visit_time(&self) -> Option<PyVisitTime> {
        self.with(|g| g.visit_time().map(PyVisitTime::of))
    }

    /// True if and only if one of its `user-agent` lines is `*`.
    #[getter]
    fn is_global(&self) -> bool {
        self.with(|g| g.is_global())
    }

    /// Returns True if and only if one of its `user-agent` lines names
    /// `agent` (by product token, ignoring ASCII case).
    fn is_named_by(&self, agent: &Bound<'_, PyAny>) -> PyResult<bool> {
        let agent = convert::text(agent, "agent")?;
        Ok(self.with(|g| g.is_named_by(&agent)))
    }

    fn __repr__(&self) -> String {
        let names: Vec<String> = self.with(|g| {
            g.agents().map(|a| a.value_lossy().into_owned()).collect()
        });
        format!(
            "<Group {} (lines {}-{}): {names:?}>",
            self.index, self.line, self.end_line
        )
    }
}

/// A `user-agent` line.
#[pyclass(frozen, get_all, name = "Agent", module = "robotrules._native")]
pub(crate) struct PyAgent {
    /// Its line.
    line: u32,
    /// The value as written (invalid UTF-8 replaced).
    value: String,
    /// The product token it names (`FooBot` for `FooBot/1.2`).
    product_token: String,
    /// True if and only if it is `*`.
    is_global: bool,
}

impl PyAgent {
    fn of(a: &robotrules::Agent<'_>) -> PyAgent {
        PyAgent {
            line: a.line(),
            value: a.value_lossy().into_owned(),
            product_token: String::from_utf8_lossy(a.product_token())
                .into_owned(),
            is_global: a.is_global(),
        }
    }
}

#[pymethods]
impl PyAgent {
    fn __repr__(&self) -> String {
        format!("<Agent line {}: {}>", self.line, self.value)
    }
}

/// An `allow` or `disallow` rule.
#[pyclass(frozen, get_all, name = "Rule", module = "robotrules._native")]
pub(crate) struct PyRule {
    /// Its line.
    line: u32,
    /// `"allow"` or `"disallow"`.
    kind: &'static str,
    /// The value as written (invalid UTF-8 replaced).
    pattern: String,
    /// The normalised pattern that paths are matched against.
    normalized: String,
    /// Its priority: the normalised pattern's length.
    priority: usize,
}

impl PyRule {
    fn of(r: &robotrules::Rule<'_>) -> PyRule {
        PyRule {
            line: r.line(),
            kind: r.kind().as_str(),
            pattern: String::from_utf8_lossy(r.as_written()).into_owned(),
            normalized: r.pattern().to_string(),
            priority: r.priority(),
        }
    }
}

#[pymethods]
impl PyRule {
    fn __repr__(&self) -> String {
        format!("<Rule line {} {}: {}>", self.line, self.kind, self.pattern)
    }
}

/// A `sitemap` line.
#[pyclass(frozen, get_all, name = "Sitemap", module = "robotrules._native")]
pub(crate) struct PySitemap {
    /// Its line.
    line: u32,
    /// The URL as written (invalid UTF-8 replaced).
    url: String,
}

#[pymethods]
impl PySitemap {
    fn __repr__(&self) -> String {
        format!("<Sitemap line {}: {}>", self.line, self.url)
    }
}

/// A line whose key Google does not use.
#[pyclass(
    frozen,
    get_all,
    name = "UnknownDirective",
    module = "robotrules._native"
)]
pub(crate) struct PyUnknownDirective {
    /// Its line.
    line: u32,
    /// The key as written (invalid UTF-8 replaced).
    key: String,
    /// The value.
    value: String,
    /// True if and only if Google knows the key but does not use it
    /// (`crawl-delay`, `host`, ...).
    is_unused: bool,
}

impl PyUnknownDirective {
    fn of(d: &robotrules::UnknownDirective<'_>) -> PyUnknownDirective {
        PyUnknownDirective {
            line: d.line(),
            key: d.key_lossy().into_owned(),
            value: d.value().to_string(),
            is_unused: d.is_unused(),
        }
    }
}

#[pymethods]
impl PyUnknownDirective {
    fn __repr__(&self) -> String {
        format!(
            "<UnknownDirective line {}: {}: {}>",
            self.line, self.key, self.value
        )
    }
}

/// A typed extension line: `crawl-delay`, `request-rate`, `visit-time`,
/// `host`, `clean-param`, `content-signal` or `noindex`.
#[pyclass(frozen, get_all, name = "Extension", module = "robotrules._native")]
pub(crate) struct PyExtension {
    /// Its line.
    line: u32,
    /// The key, lowercase (`"crawl-delay"`, ...).
    kind: &'static str,
    /// The line's value as written (invalid UTF-8 replaced).
    as_written: String,
    /// The parsed value (`float`, `RequestRate`, `VisitTime`, `str`,
    /// `dict`), or `None` if it is invalid.
    value: Py<PyAny>,
    /// Why the value is invalid, or `None`.
    error: Option<String>,
}

impl PyExtension {
    fn of(
        py: Python<'_>,
        e: &robotrules::Extension<'_>,
    ) -> PyResult<PyExtension> {
        let (value, error) = match e.value() {
            Ok(v) => (extension_value(py, &v)?, None),
            Err(err) => (py.None(), Some(err.to_string())),
        };
        Ok(PyExtension {
            line: e.line(),
            kind: e.kind().key(),
            as_written: String::from_utf8_lossy(e.as_written()).into_owned(),
            value,
            error,
        })
    }
}

fn extension_value(
    py: Python<'_>,
    v: &ExtensionValue<'_>,
) -> PyResult<Py<PyAny>> {
    Ok(match v {
        ExtensionValue::CrawlDelay(s) => {
            s.into_pyobject(py)?.into_any().unbind()
        }
        ExtensionValue::RequestRate(r) => {
            Py::new(py, PyRequestRate::of(*r))?.into_any()
        }
        ExtensionValue::VisitTime(t) => {
            Py::new(py, PyVisitTime::of(*t))?.into_any()
        }
        ExtensionValue::Host(h) | ExtensionValue::Noindex(h) => {
            h.into_pyobject(py)?.into_any().unbind()
        }
        ExtensionValue::CleanParam(c) => {
            let d = PyDict::new(py);
            d.set_item("params", PyList::new(py, &c.params)?)?;
            d.set_item("path", c.path)?;
            d.into_any().unbind()
        }
        ExtensionValue::ContentSignal(signals) => {
            let d = PyDict::new(py);
            for (name, yes) in signals {
                d.set_item(name, yes)?;
            }
            d.into_any().unbind()
        }
        _ => py.None(),
    })
}

#[pymethods]
impl PyExtension {
    fn __repr__(&self) -> String {
        format!(
            "<Extension line {} {}: {}>",
            self.line, self.kind, self.as_written
        )
    }
}

/// A `request-rate`: `requests` per `seconds`, optionally in a window.
#[pyclass(
    frozen,
    get_all,
    name = "RequestRate",
    module = "robotrules._native"
)]
pub(crate) struct PyRequestRate {
    /// How many requests.
    requests: u32,
    /// Per how many seconds.
    seconds: u32,
    /// The UTC window in which the rate applies, if given.
    window: Option<PyVisitTime>,
}

impl PyRequestRate {
    fn of(r: robotrules::RequestRate) -> PyRequestRate {
        PyRequestRate {
            requests: r.requests,
            seconds: r.seconds,
            window: r.window.map(PyVisitTime::of),
        }
    }
}

#[pymethods]
impl PyRequestRate {
    fn __repr__(&self) -> String {
        format!(
            "RequestRate(requests={}, seconds={})",
            self.requests, self.seconds
        )
    }
}

/// A daily UTC window, in minutes after midnight.
#[pyclass(frozen, get_all, name = "VisitTime", module = "robotrules._native")]
#[derive(Clone)]
pub(crate) struct PyVisitTime {
    /// Start, in minutes after midnight UTC.
    start: u16,
    /// End, in minutes after midnight UTC.
    end: u16,
}

impl PyVisitTime {
    fn of(t: robotrules::VisitTime) -> PyVisitTime {
        PyVisitTime { start: t.start, end: t.end }
    }
}

#[pymethods]
impl PyVisitTime {
    fn __repr__(&self) -> String {
        format!("VisitTime(start={}, end={})", self.start, self.end)
    }
}

/// The reference's report of one line.
#[pyclass(frozen, name = "LineReport", module = "robotrules._native")]
pub(crate) struct PyLineReport(robotrules::LineReport);

#[pymethods]
impl PyLineReport {
    /// The line number, from 1.
    #[getter]
    fn number(&self) -> u32 {
        self.0.number()
    }

    /// The reference's tag: `"UserAgent"`, `"Allow"`, `"Disallow"`,
    /// `"Sitemap"`, `"Unknown"`, `"Unused"`, or `None` for no directive.
    #[getter]
    fn tag(&self) -> Option<&'static str> {
        self.0.tag().map(|t| t.name())
    }

    /// True if and only if the line is empty.
    #[getter]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True if and only if the line has a comment.
    #[getter]
    fn has_comment(&self) -> bool {
        self.0.has_comment()
    }

    /// True if and only if the line is only a comment.
    #[getter]
    fn is_comment(&self) -> bool {
        self.0.is_comment()
    }

    /// True if and only if the line has a directive.
    #[getter]
    fn has_directive(&self) -> bool {
        self.0.has_directive()
    }

    /// True if and only if its key is an accepted typo (`disalow`).
    #[getter]
    fn is_typo(&self) -> bool {
        self.0.is_typo()
    }

    /// True if and only if the line was longer than `MAX_LINE_LEN`.
    #[getter]
    fn is_too_long(&self) -> bool {
        self.0.is_too_long()
    }

    /// True if and only if key and value had no colon between them.
    #[getter]
    fn is_missing_colon(&self) -> bool {
        self.0.is_missing_colon()
    }

    /// True if and only if the line has a NUL byte.
    #[getter]
    fn has_nul(&self) -> bool {
        self.0.has_nul()
    }

    fn __repr__(&self) -> String {
        let tag = self
            .0
            .tag()
            .map_or("None".to_string(), |t| format!("'{}'", t.name()));
        format!("<LineReport {}: {tag}>", self.0.number())
    }
}

/// The part of `url` that rules are matched against (path, params and
/// query), as the reference takes it.
#[pyfunction]
fn path_of(url: &Bound<'_, PyAny>) -> PyResult<String> {
    let url = convert::text(url, "url")?;
    Ok(robotrules::path_of(&url).to_string())
}

/// A rule value normalised as the reference does before matching
/// (non-ASCII bytes and `%xx` escapes in uppercase hex).
#[pyfunction]
fn escape_pattern(pattern: &Bound<'_, PyAny>) -> PyResult<String> {
    let pattern = convert::body(pattern, "pattern")?;
    Ok(robotrules::escape_pattern(&pattern).into_owned())
}

/// Returns True if and only if `agent` is a product token the reference
/// obeys: non-empty, only ASCII letters, `-` and `_`.
#[pyfunction]
fn is_valid_agent(agent: &Bound<'_, PyAny>) -> PyResult<bool> {
    let agent = convert::text(agent, "agent")?;
    Ok(robotrules::is_valid_agent(&agent))
}

/// The product token at the start of `value` (`FooBot` for
/// `FooBot/1.2`), possibly empty.
#[pyfunction]
fn product_token(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = convert::text(value, "value")?;
    Ok(String::from_utf8_lossy(robotrules::product_token(value.as_bytes()))
        .into_owned())
}
