"""The native API: parse, check, decide, the parts of a file, and the
analysis results, which equal the command line's JSON."""

import json
import os
import subprocess

import pytest

import robotrules
from conftest import ROOT, corpus_files

BODY = b"""\
User-agent: *
Disallow: /private
Allow: /private/ok$
Crawl-delay: 2
Request-rate: 3/1m 0800-1700
Visit-time: 0600-0845
Host: example.com
Clean-param: ref&utm /shop
Content-Signal: search=yes, ai-train=no
Sitemap: https://example.com/sitemap.xml
Foo: bar

User-agent: MyBot
User-agent: OtherBot/2.0
Disallow: /*.pdf$
Allow: /docs/index.html
"""


@pytest.fixture(scope="module")
def robots():
    return robotrules.Robots.parse(BODY)


def test_verdicts(robots):
    assert not robots.is_allowed("AnyBot", "https://example.com/private/x")
    assert robots.is_allowed("AnyBot", "https://example.com/private/ok")
    assert not robots.is_allowed("AnyBot", "https://example.com/private/ok/x")
    # MyBot is named: the * group does not apply to it.
    assert robots.is_allowed("MyBot", "https://example.com/private/x")
    assert not robots.is_allowed("mybot", "https://example.com/a.pdf")
    assert robots.is_allowed("MyBot", "https://example.com/a.pdf?x")
    # Several names: merged as one crawler.
    assert not robots.is_allowed(["Nobody", "OtherBot"], "/x.pdf")


def test_decide(robots):
    d = robots.matcher("MyBot").decide("https://example.com/docs/")
    assert d.allowed
    rule = d.rule
    assert (rule.line, rule.kind, rule.pattern) == (16, "allow", "/docs/index.html")
    assert rule.index_retry and rule.priority == len("/docs/") + 1
    assert d.to_dict() == {"allowed": True, "rule": rule.to_dict()}
    assert rule.to_dict() == {
        "line": 16, "kind": "allow", "pattern": "/docs/index.html",
        "normalized": "/docs/index.html", "priority": 7, "index_retry": True,
    }
    none = robots.decide("MyBot", "/elsewhere")
    assert none.allowed and none.rule is None
    assert none.to_dict() == {"allowed": True, "rule": None}


def test_batch(robots):
    m = robots.matcher("AnyBot")
    urls = [f"/private/{i}" for i in range(1000)] + ["/private/ok", "/public"]
    got = m.is_allowed_many(urls)
    assert got == [m.is_allowed(u) for u in urls]
    assert got[-2:] == [True, True] and not any(got[:1000])
    # URLs holding a newline, a tuple, an empty list.
    odd = ["/private/a\nb", "/x\n", "\n/private", "/private"]
    assert m.is_allowed_many(odd) == [m.is_allowed(u) for u in odd]
    assert m.is_allowed_many(tuple(odd)) == m.is_allowed_many(odd)
    assert m.is_allowed_many(odd)[-1] is False
    assert m.is_allowed_many([]) == [] and m.decide_many(()) == []
    # Any iterable: a generator.
    assert m.is_allowed_many(u for u in ["/private", "/x"]) == [False, True]
    decisions = m.decide_many(["/private/ok", "/nothing"])
    assert [d.allowed for d in decisions] == [True, True]
    assert decisions[0].rule.line == 3 and decisions[1].rule is None


def test_matcher_properties(robots):
    m = robots.matcher("AnyBot")
    assert m.agents == ["AnyBot"] and not m.is_named
    assert m.crawl_delay == 2.0
    rate = m.request_rate
    assert (rate.requests, rate.seconds) == (3, 60)
    assert (rate.window.start, rate.window.end) == (8 * 60, 17 * 60)
    assert (m.visit_time.start, m.visit_time.end) == (6 * 60, 8 * 60 + 45)
    assert m.coverage() == ("partial", m.coverage()[1], m.coverage()[2])
    assert robots.matcher("MyBot").is_named
    assert robots.matcher("MyBot").crawl_delay is None
    alone = robots.matcher("AnyBot", ignore_global=True)
    assert alone.is_allowed("/private")
    # Its extensions are of the groups it reads: none.
    assert (alone.crawl_delay, alone.request_rate, alone.visit_time) == (None, None, None)
    koster = robots.matcher("AnyBot", semantics="first-match-1996")
    assert not koster.is_allowed("/private/ok")  # the first match decides
    everything = robotrules.Robots.parse(b"user-agent: *\ndisallow: /\n")
    assert everything.matcher("x").coverage() == ("disallowed", None, None)


def test_parts(robots):
    groups = robots.groups
    assert [g.line for g in groups] == [1, 13]
    assert groups[0].is_global and not groups[1].is_global
    assert [a.value for a in groups[1].agents] == ["MyBot", "OtherBot/2.0"]
    assert [a.product_token for a in groups[1].agents] == ["MyBot", "OtherBot"]
    assert groups[1].is_named_by("otherbot")
    rules = groups[0].rules
    assert [(r.line, r.kind, r.pattern) for r in rules] == [
        (2, "disallow", "/private"), (3, "allow", "/private/ok$")]
    assert groups[0].crawl_delay == 2.0
    assert [s.url for s in robots.sitemaps] == ["https://example.com/sitemap.xml"]
    assert robots.host == "example.com"
    unknown = {d.key: d for d in robots.unknown_directives}
    assert unknown["Foo"].value == "bar" and not unknown["Foo"].is_unused
    assert unknown["Crawl-delay"].is_unused
    ext = {e.kind: e for e in robots.extensions}
    assert ext["crawl-delay"].value == 2.0 and ext["crawl-delay"].error is None
    assert ext["host"].value == "example.com"
    assert ext["clean-param"].value == {"params": ["ref", "utm"], "path": "/shop"}
    assert ext["content-signal"].value == {"search": True, "ai-train": False}
    assert ext["visit-time"].value.start == 360
    bad = robotrules.Robots.parse(b"user-agent: *\ncrawl-delay: soon\n")
    (e,) = bad.extensions
    assert e.value is None and "crawl-delay" in e.error
    assert robots.line_count == BODY.count(b"\n") + 1
    assert robots.line(1).tag == "UserAgent" and robots.line(11).tag == "Unknown"
    assert robots.body == BODY and not robots.is_truncated
    orphans = robotrules.Robots.parse(b"disallow: /x\nuser-agent: *\n").orphan_rules
    assert [r.pattern for r in orphans] == ["/x"]


def test_timeouts_out_of_range_are_value_errors():
    for timeout in (0, -1, 1e20, 10**30, float("inf"), float("nan"), 86401):
        with pytest.raises(ValueError, match="timeout"):
            robotrules.RobotsCache(timeout=timeout)
        with pytest.raises(ValueError, match="timeout"):
            robotrules.policy.fetch("http://127.0.0.1:1/", timeout=timeout)
    robotrules.RobotsCache(timeout=86400)


def test_bools_and_byte_arrays_are_refused_with_clear_errors(robots):
    # `True` is an int to Python, but no timeout or number of entries.
    with pytest.raises(TypeError, match="timeout"):
        robotrules.RobotsCache(timeout=True)
    with pytest.raises(TypeError, match="max_entries"):
        robotrules.RobotsCache(max_entries=True)
    # Iterables of ints, refused as a whole, as bytes are.
    for value in (bytearray(b"FooBot"), memoryview(b"FooBot")):
        with pytest.raises(TypeError, match="agent.* not (bytearray|memoryview)"):
            robots.is_allowed(value, "/")
        with pytest.raises(TypeError, match="not (bytearray|memoryview)"):
            robots.matcher("a").is_allowed_many(value)


def test_reprs_are_python(robots):
    assert repr(robots.line(1)) == "<LineReport 1: 'UserAgent'>"
    assert repr(robotrules.Robots.parse(b"\n").line(1)) == "<LineReport 1: None>"


def test_agent_for(robots):
    ua = "Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)"
    assert robots.agent_for(ua) == "MyBot"
    assert robots.agent_for("OtherBot/2.0 (+http://x)") == "OtherBot"
    assert robots.agent_for("Mozilla/5.0 (compatible; Unknown/1.0)") == "Unknown"
    assert robotrules.agent_from_user_agent(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)"
    ) == "GPTBot"
    assert robotrules.product_token("FooBot/1.2") == "FooBot"
    assert robotrules.percent_encode("/café") == "/caf%C3%A9"


def test_objects_are_immutable(robots):
    with pytest.raises(AttributeError):
        robots.groups = []
    d = robots.decide("x", "/private")
    with pytest.raises(AttributeError):
        d.allowed = True


def test_results(robots):
    diagnostics = robots.lint()
    assert diagnostics and all(d.code.startswith("RT") for d in diagnostics)
    assert robotrules.lint(BODY) == diagnostics
    e = robots.explain("AnyBot", "https://example.com/private/x")
    assert not e.allowed and e.rule["line"] == 2 and e.warnings == []
    assert e.to_dict()["rule"] == e.rule
    standings = robots.audit()
    assert len(standings) == len(robotrules.Catalogue.builtin())
    assert {s.token for s in standings} >= {"Googlebot", "GPTBot"}
    check = robots.check("MyBot/1.0", "/private/x")
    # `MyBot/1.0` names no group (the reference): the * rules apply.
    assert not check.allowed and check.warnings[0]["suggestion"] == "MyBot"
    catalogue = robotrules.Catalogue.from_toml(
        '[[crawler]]\ntoken = "MyBot"\noperator = "Me"\npurpose = "search"\n')
    (mine,) = robots.audit(catalogue)
    assert mine.via == "named" and mine.lines == [13]
    with pytest.raises(ValueError, match="text"):
        robotrules.Catalogue.from_toml("[[crawler]]\ntoken = 1\n")
    with pytest.raises(AttributeError):
        e.no_such_field


def cli():
    path = os.environ.get("ROBOTRULES_CLI") or str(ROOT / "target/debug/robotrules")
    assert os.path.exists(path), (
        f"the command line is needed to compare JSON: {path} "
        "(cargo build -p robotrules-cli, or set ROBOTRULES_CLI)")
    return path


def run_cli(*args):
    out = subprocess.run([cli(), *args], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr.decode()
    return out.stdout.decode()


SAMPLES = corpus_files()[:: max(1, len(corpus_files()) // 12)][:12]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_to_dict_equals_cli_json(path):
    robots = robotrules.Robots.parse(path.read_bytes())
    p = str(path)
    lint = [json.loads(l) for l in run_cli("lint", "--json", p).splitlines()]
    assert [d.to_dict() for d in robots.lint()] == lint
    assert [s.to_dict() for s in robots.audit()] == json.loads(run_cli("audit", "--json", p))
    for agent, url in [("Googlebot", "https://example.com/search?q=1"),
                       ("GPTBot/1.0", "/wp-admin/é"), ("*", "/")]:
        assert robots.explain(agent, url).to_dict() == json.loads(
            run_cli("explain", "--json", p, agent, url))
        assert robots.check(agent, url).to_dict() == json.loads(
            run_cli("check", "--json", p, agent, url))


def test_files_over_500_kib_say_what_crawlers_read(tmp_path):
    # The group that names GPTBot lies beyond the first 500 KiB: the
    # reference reads it, crawlers obey the `*` group.
    body = b"User-agent: *\nDisallow: /a\n"
    body += b"# padding padding padding\n" * 20000
    body += b"User-agent: GPTBot\nDisallow: /b\n"
    assert len(body) > 500 * 1024
    robots = robotrules.Robots.parse(body)
    e = robots.explain("GPTBot", "/a").to_dict()
    assert e["allowed"] is True
    assert e["as_fetched"]["allowed"] is False and e["as_fetched"]["rule"]["line"] == 2
    assert e["warnings"][0]["kind"] == "beyond-fetch-limit"
    c = robots.check("GPTBot", "/a").to_dict()
    assert c["warnings"][0]["kind"] == "beyond-fetch-limit"
    (gpt,) = [s.to_dict() for s in robots.audit() if s.to_dict()["token"] == "GPTBot"]
    assert gpt["via"] == "named" and gpt["as_fetched"]["via"] == "global"
    p = tmp_path / "robots.txt"
    p.write_bytes(body)
    assert [s.to_dict() for s in robots.audit()] == json.loads(run_cli("audit", "--json", str(p)))
    assert robots.explain("GPTBot", "/a").to_dict() == json.loads(
        run_cli("explain", "--json", str(p), "GPTBot", "/a"))
