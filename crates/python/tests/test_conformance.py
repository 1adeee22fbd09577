"""Every case of the reference's conformance vectors and of
``testdata/*.toml``, through the Python API."""

import sys

import pytest

import robotrules
from conftest import ROOT, conformance, field_bytes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

GOOGLE = conformance("google_cases.json")


def test_count():
    assert len(GOOGLE) == 145


@pytest.mark.parametrize("case", GOOGLE, ids=[c["name"] for c in GOOGLE])
def test_allowance(case):
    body = field_bytes(case, "robotstxt")
    agent, url, want = case["useragent"], case["url"], case["allowed"]
    robots = robotrules.Robots.parse(body)
    assert robots.is_allowed(agent, url) is want
    matcher = robots.matcher(agent)
    decision = matcher.decide(url)
    assert matcher.is_allowed(url) is want
    assert decision.allowed is want
    assert matcher.is_allowed_many([url, url]) == [want, want]
    one = robots.decide(agent, url)
    assert (one.rule and one.rule.line) == (decision.rule and decision.rule.line)
    # str bodies are their UTF-8 bytes.
    if "robotstxt" in case:
        assert robotrules.Robots.parse(case["robotstxt"]).is_allowed(agent, url) is want


@pytest.mark.parametrize("case", conformance("google_useragent_cases.json"),
                         ids=lambda c: c["name"])
def test_valid_agents(case):
    assert robotrules.is_valid_agent(case["useragent"]) is case["valid"]


@pytest.mark.parametrize("case", conformance("google_path_cases.json"),
                         ids=lambda c: c["name"])
def test_url_to_path(case):
    assert robotrules.path_of(case["url"]) == case["path"]


@pytest.mark.parametrize("case", conformance("google_escape_cases.json"),
                         ids=lambda c: c["name"])
def test_escaping(case):
    assert robotrules.escape_pattern(case["pattern"]) == case["escaped"]


VALID_TAGS = {"UserAgent", "Allow", "Disallow", "Sitemap"}


def test_reports():
    """The reference's two reporters, recomputed from the Python API: the
    51 upstream assertions."""
    assertions = 0
    for case in conformance("google_report_cases.json"):
        name = case["name"]
        robots = robotrules.Robots.parse(field_bytes(case, "robotstxt"))
        stats = case["reporter"] == "RobotsStatsReporter"
        lines = robots.lines
        for metric, want in case["expected"].items():
            if metric == "valid_directives":
                got = sum(1 for l in lines if l.tag in VALID_TAGS)
            elif metric == "unknown_directives":
                got = len(robots.unknown_directives)
            elif metric == "last_line_seen" and stats:
                seen = [l.number for l in lines if l.has_directive]
                got = seen[-1] if seen else 0
            elif metric in ("last_line_seen", "parse_results_size"):
                got = robots.line_count
            elif metric == "sitemap":
                got = "".join(s.url for s in robots.sitemaps)
            else:
                raise AssertionError(f"{name}: unknown metric {metric}")
            assert got == want, f"{name}: {metric}"
            assertions += 1
        for line in case.get("expected_lines", []):
            report = robots.line(line["line_num"])
            assert report is not None
            assert (report.tag or "Unknown") == line["tag_name"], name
            meta = line["metadata"]
            got = [report.is_empty, report.has_comment, report.is_comment,
                   report.has_directive, report.is_typo, report.is_too_long,
                   report.is_missing_colon]
            want = [meta["is_empty"], meta["has_comment"], meta["is_comment"],
                    meta["has_directive"], meta["is_acceptable_typo"],
                    meta["is_line_too_long"], meta["is_missing_colon_separator"]]
            assert report.is_typo is line["is_typo"]
            assert got == want, f"{name}: line {line['line_num']}"
            assertions += 1
    assert assertions == 51


def _toml_cases():
    cases = []
    for path in sorted((ROOT / "testdata").glob("*.toml")):
        with open(path, "rb") as f:
            cases.extend(tomllib.load(f)["case"])
    return cases


RULES = _toml_cases()


def test_rules_loaded():
    assert len(RULES) >= 50


@pytest.mark.parametrize("case", RULES, ids=[c["name"] for c in RULES])
def test_rules(case):
    robots = robotrules.Robots.parse(case["robots"])
    agents, url = case["agents"], case["url"]
    decision = robots.decide(agents, url)
    assert decision.allowed is case["allowed"]
    assert (decision.rule.line if decision.rule else 0) == case["line"]
    matcher = robots.matcher(agents)
    assert matcher.is_allowed(url) is case["allowed"]
    assert robots.is_allowed(agents, url) is case["allowed"]
