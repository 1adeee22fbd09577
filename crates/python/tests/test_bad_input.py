"""Bad input: wrong types, None, huge bodies, lone surrogates, invalid
URLs. A clear TypeError or ValueError naming the argument; never a crash,
never a silently wrong verdict."""

import pytest

import robotrules
import robotrules.scrapy

ROBOTS = robotrules.Robots.parse(b"user-agent: *\ndisallow: /private\n")
MATCHER = ROBOTS.matcher("AnyBot")
SURROGATE = "/private/\ud800"


@pytest.mark.parametrize("call, name", [
    (lambda: robotrules.Robots.parse(None), "body"),
    (lambda: robotrules.Robots.parse(42), "body"),
    (lambda: robotrules.Robots.parse(["user-agent: *"]), "body"),
    (lambda: ROBOTS.is_allowed(None, "/x"), "agent"),
    (lambda: ROBOTS.is_allowed(b"AnyBot", "/x"), "agent"),
    (lambda: ROBOTS.is_allowed(["a", 1], "/x"), "agent"),
    (lambda: ROBOTS.is_allowed("a", None), "url"),
    (lambda: ROBOTS.is_allowed("a", b"/x"), "url"),
    (lambda: ROBOTS.decide("a", 3), "url"),
    (lambda: ROBOTS.matcher(None), "agents"),
    (lambda: MATCHER.is_allowed(None), "url"),
    (lambda: MATCHER.decide(1.5), "url"),
    (lambda: MATCHER.is_allowed_many("/x"), "urls"),
    (lambda: MATCHER.is_allowed_many(None), "urls"),
    (lambda: MATCHER.is_allowed_many(["/x", None]), "urls"),
    (lambda: ROBOTS.explain("a", None), "url"),
    (lambda: ROBOTS.audit("builtin"), "catalogue"),
    (lambda: robotrules.lint(None), "body"),
    (lambda: robotrules.path_of(None), "url"),
    (lambda: robotrules.Protego.parse("").can_fetch(None, "a"), "url"),
    (lambda: robotrules.Protego.parse("").can_fetch("/", None), "user_agent"),
    (lambda: robotrules.RobotFileParser().parse(None), "lines"),
    (lambda: robotrules.RobotFileParser().parse([1, 2]), "lines"),
    (lambda: robotrules.RobotFileParser().can_fetch(None, "/"), "useragent"),
    (lambda: robotrules.scrapy.RobotRulesParser(42, None), "robotstxt_body"),
    (lambda: robotrules.scrapy.RobotRulesParser(b"", None).allowed(None, "a"), "url"),
    (lambda: robotrules.policy.evaluate("https://e.com/", "200"), "status"),
    (lambda: robotrules.policy.evaluate("https://e.com/", 200, 5), "headers"),
    (lambda: robotrules.policy.evaluate(None, 200), "url"),
    (lambda: robotrules.RobotsCache(max_entries=1.5), "max_entries"),
    (lambda: robotrules.RobotsCache(timeout="5"), "timeout"),
    (lambda: robotrules.policy.fetch("https://e.com/", timeout=[1]), "timeout"),
    (lambda: ROBOTS.line("1"), "number"),
])
def test_wrong_types(call, name):
    with pytest.raises(TypeError, match=name):
        call()


@pytest.mark.parametrize("call, name", [
    (lambda: robotrules.Robots.parse("user-agent: *\ndisallow: /\ud800"), "body"),
    (lambda: ROBOTS.is_allowed("a", SURROGATE), "url"),
    (lambda: ROBOTS.is_allowed("\udfff", "/x"), "agent"),
    (lambda: MATCHER.is_allowed(SURROGATE), "url"),
    (lambda: MATCHER.is_allowed_many(["/a", SURROGATE]), "urls"),
    (lambda: robotrules.Protego.parse("").can_fetch(SURROGATE, "a"), "url"),
    (lambda: ROBOTS.matcher("a", semantics="fuzzy"), "semantics"),
    (lambda: robotrules.Protego.parse(None), "str"),  # as Protego
    (lambda: robotrules.policy.evaluate("/robots.txt", 200), "url"),
    (lambda: robotrules.policy.evaluate("mailto:a@b.c", 200), "url"),
    (lambda: robotrules.policy.evaluate("https://e.com/", 70000), "status"),
    (lambda: robotrules.policy.evaluate("https://e.com/", 2**70), "status"),
    (lambda: robotrules.RobotFileParser("https://e.com/robots.txt").can_fetch("\udcff", "/"), "useragent"),
    (lambda: robotrules.Protego.parse("").can_fetch("/", "\ud800Bot"), "user_agent"),
    (lambda: robotrules.scrapy.RobotRulesParser(b"", None).allowed("/", "\ud800"), "user_agent"),
    (lambda: robotrules.policy.robots_url("example.com/robots.txt"), "url"),
    (lambda: robotrules.policy.fetch("no scheme"), "url"),
    (lambda: robotrules.policy.fetch("https://e.com/", timeout=-1), "timeout"),
    (lambda: robotrules.RobotsCache().is_allowed("a", "/relative"), "url"),
    (lambda: robotrules.RobotsCache().is_allowed("a", "http://"), "url"),
    (lambda: robotrules.policy.fetch("https://e.com/", user_agent="a\nb"), "user_agent"),
    (lambda: robotrules.fetch("https://e.com/", user_agent="a\x00b"), "user_agent"),
    (lambda: robotrules.RobotsCache(user_agent="a\rb"), "user_agent"),
    (lambda: robotrules.RobotsCache(max_entries=-1), "max_entries"),
    (lambda: robotrules.RobotsCache(max_entries=0), "max_entries"),
    (lambda: robotrules.RobotsCache(max_entries=2**70), "max_entries"),
])
def test_bad_values(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_any_int_asks_for_a_line():
    assert ROBOTS.line(1).tag == "UserAgent"
    for number in [0, -1, 4, 2**40, -(2**70)]:
        assert ROBOTS.line(number) is None


def test_surrogates_do_not_leak_into_verdicts():
    # The same URL without the surrogate is judged; with it, an error.
    assert not MATCHER.is_allowed("/private/x")
    with pytest.raises(ValueError, match="surrogate"):
        MATCHER.is_allowed(SURROGATE)


def test_huge_body_is_cut_and_said():
    limit = robotrules.MAX_BODY_LEN
    body = b"user-agent: *\ndisallow: /private\n" + b"#" * limit
    robots = robotrules.Robots.parse(body)
    assert robots.is_truncated
    assert not robots.is_allowed("a", "/private")
    small = robotrules.Robots.parse(b"x" * (8 << 20))
    assert not small.is_truncated and small.is_allowed("a", "/")


def test_binary_and_hostile_bodies():
    import random
    rng = random.Random(7)
    for n in (1, 10, 1000, 100000):
        body = bytes(rng.randrange(256) for _ in range(n))
        robots = robotrules.Robots.parse(body)
        assert robots.is_allowed("a", "/") in (True, False)
        robots.lint()
        robots.explain("a", "/x")
    nul = robotrules.Robots.parse(b"user-agent: *\x00\ndisallow: /\x00x\n")
    assert nul.line(1).has_nul
    memory = robotrules.Robots.parse(memoryview(b"user-agent: *\ndisallow: /m\n"))
    assert not memory.is_allowed("a", "/m")
    mutable = robotrules.Robots.parse(bytearray(b"user-agent: *\ndisallow: /b\n"))
    assert not mutable.is_allowed("a", "/b")


def test_odd_but_valid_urls_get_the_references_answer():
    # The reference judges any string as a URL or a path: no exception.
    for url in ["", "not a url", "http://[::1", "//host/private", "?q", "#f"]:
        assert ROBOTS.is_allowed("a", url) == ROBOTS.decide("a", url).allowed
    # Unencoded characters are matched as given; `check` says so.
    check = ROBOTS.check("a", "/privé")
    assert [w["kind"] for w in check.warnings] == ["needs-encoding"]
