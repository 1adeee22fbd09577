"""The fetch layer: ``policy.evaluate`` (sans-IO), ``policy.fetch`` and
``RobotsCache``, against a real HTTP server on 127.0.0.1."""

import _thread
import concurrent.futures
import signal
import socket
import threading
import time

import pytest

import robotrules
from robotrules import policy
from sites import Site

RULES = b"User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\nDisallow: /\nCrawl-delay: 2\n"


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


@pytest.mark.parametrize("status, access", [
    (200, "obey"), (204, "obey"), (400, "allow-all"), (401, "allow-all"),
    (403, "allow-all"), (404, "allow-all"), (429, "disallow-all"),
    (500, "disallow-all"), (503, "disallow-all"), (None, "disallow-all"),
])
def test_evaluate_status_classes(status, access):
    result = policy.evaluate("https://example.com/a/b?c", status, {}, RULES)
    assert result.access == access
    assert result.url == "https://example.com/robots.txt"
    assert (result.robots is not None) == (access == "obey")
    page = "https://example.com/private/x"
    assert result.is_allowed("AnyBot", page) is (access == "allow-all")
    # The robots.txt itself is always allowed (RFC 9309 §2.2.2).
    assert result.is_allowed("MyBot", "https://example.com/robots.txt")


def test_evaluate_an_unfollowed_redirect_is_unreachable():
    # A client that does not follow redirects (httpx by default) hands
    # over the 3xx: the file is unknown, never "too many redirects".
    for status, location in [(301, "https://www.example.com/robots.txt"), (302, "/new/robots.txt")]:
        result = policy.evaluate("https://example.com/", status, {"Location": location}, b"")
        assert result.access == "disallow-all", (status, result.outcome)
        assert "not followed" in result.outcome
        assert not result.is_allowed("AnyBot", "https://example.com/x")
    # A redirect to itself is a loop: as a 404 (Google).
    looped = policy.evaluate("https://example.com/", 302, {"Location": "/robots.txt"}, b"")
    assert (looped.access, looped.outcome) == ("allow-all", "unavailable (redirect loop)")
    # With a fragment as well: a fragment is never requested.
    looped = policy.evaluate("https://example.com/", 302, {"Location": "/robots.txt#top"}, b"")
    assert (looped.access, looped.outcome) == ("allow-all", "unavailable (redirect loop)")


def test_evaluate_not_modified_says_to_keep_the_copy():
    # A 304 answers a client's conditional request: no redirect, no file;
    # the outcome says to judge the copy it revalidated.
    result = policy.evaluate("https://example.com/", 304, {"ETag": '"x"'}, b"")
    assert result.access == "disallow-all"
    assert "304 Not Modified" in result.outcome
    assert "conditional request" in result.outcome


def test_evaluate_lifetimes():
    fresh = policy.evaluate("https://e.com/", 200, [("Cache-Control", "max-age=60")], RULES)
    assert fresh.lifetime == 60
    assert policy.evaluate("https://e.com/", 200, {}, RULES).lifetime == policy.DEFAULT_LIFETIME
    assert policy.evaluate("https://e.com/", 200, {"cache-control": "no-store"}, b"").lifetime == 0
    assert policy.evaluate("https://e.com/", 503, {}, b"").lifetime == 300
    assert policy.evaluate("https://e.com/", 500, {}, b"").lifetime == 3600
    assert policy.evaluate("https://e.com/", 503, {"Retry-After": "120"}, b"").lifetime == 120
    # Time already spent in caches on the way counts against max-age.
    aged = [("Cache-Control", "max-age=60"), ("Age", "45")]
    assert policy.evaluate("https://e.com/", 200, aged, RULES).lifetime == 15
    stale = {"cache-control": "max-age=60", "age": "61"}
    assert policy.evaluate("https://e.com/", 200, stale, RULES).lifetime == 0
    odd = {"cache-control": "max-age=60", "age": "a minute"}
    assert policy.evaluate("https://e.com/", 200, odd, RULES).lifetime == 60


def test_evaluate_caps_the_body():
    body = b"User-agent: *\n" + b"#" * policy.MAX_BODY + b"\nDisallow: /\n"
    result = policy.evaluate("https://e.com/", 200, None, body)
    assert result.truncated and result.bytes_read == policy.MAX_BODY
    # The rule past 500 KiB is not read (RFC 9309 §2.5).
    assert result.is_allowed("AnyBot", "https://e.com/x")


def test_evaluate_decide_and_target():
    result = policy.evaluate("https://e.com/", 200, {}, RULES)
    d = result.decide("AnyBot", "https://e.com/a/../private/x")
    assert not d.allowed and d.rule.line == 2  # judged as requested
    assert result.decide("AnyBot", "https://e.com/robots.txt") is None
    assert policy.robots_url("http://E.com:8080/x?y") == "http://e.com:8080/robots.txt"
    assert policy.is_exempt("https://e.com/robots.txt")
    assert not policy.is_exempt("https://e.com/robots.txt?x=1")


def test_fetch(site):
    site.routes["/robots.txt"] = (200, {"Cache-Control": "max-age=30"}, RULES)
    result = policy.fetch(site.base + "/some/page", user_agent="MyBot/1.0", timeout=10)
    assert result.access == "obey" and result.status == 200 and result.lifetime == 30
    assert result.hops == [(site.base + "/robots.txt", 200)]
    assert not result.is_allowed("MyBot", site.base + "/x")
    assert result.robots.matcher("MyBot").crawl_delay == 2.0
    assert robotrules.fetch(site.base).access == "obey"


def test_fetch_redirect_loop_is_unavailable(site):
    site.routes["/robots.txt"] = (302, {"Location": "/r1"}, b"")
    site.routes["/r1"] = (302, {"Location": "/robots.txt"}, b"")
    result = policy.fetch(site.base)
    assert result.access == "allow-all"


def test_cache(site):
    site.routes["/robots.txt"] = (200, {}, RULES)
    cache = robotrules.RobotsCache(user_agent="MyBot/1.0", timeout=10)
    v = cache.is_allowed("AnyBot", site.base + "/private/x")
    assert not v.allowed and v.reason == "rule" and v.line == 2
    assert (v.kind, v.pattern) == ("disallow", "/private")
    assert cache.is_allowed("AnyBot", site.base + "/public").reason == "no-rule"
    mine = cache.is_allowed(["MyBot"], site.base + "/public")
    assert not mine and mine.crawl_delay == 2.0
    assert cache.is_allowed("MyBot", site.base + "/robots.txt").reason == "robots-txt"

    def check(i):
        return cache.is_allowed("AnyBot", f"{site.base}/private/{i}").allowed

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert not any(pool.map(check, range(100)))
    # Fetched once, then served from the cache.
    assert site.log == ["/robots.txt"]
    assert len(cache) == 1 and cache.bytes == len(RULES)


def test_ctrl_c_interrupts_a_fetch(site):
    # A server that takes connections and never answers: without Ctrl-C,
    # each call would wait for its 60 s time limit.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/x"
    cache = robotrules.RobotsCache(timeout=60)
    # Python handles SIGINT unless it started with SIGINT ignored (a job
    # run in the background by a shell without job control): then
    # `interrupt_main` would do nothing. Ctrl-C as a terminal delivers it.
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for call in (lambda: policy.fetch(url, timeout=60),
                     lambda: cache.is_allowed("AnyBot", url)):
            timer = threading.Timer(0.3, _thread.interrupt_main)
            timer.start()
            started = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                call()
            timer.join()
            assert time.monotonic() - started < 30
    finally:
        signal.signal(signal.SIGINT, handler)
        silent.close()
    # The cache given up on still works, for that site and others.
    site.routes["/robots.txt"] = (200, {}, RULES)
    assert not cache.is_allowed("AnyBot", site.base + "/private/x")
    assert len(cache) <= 2


def test_cache_statuses(site):
    site.routes["/robots.txt"] = (503, {}, b"")
    cache = robotrules.RobotsCache()
    v = cache.is_allowed("AnyBot", site.base + "/x")
    assert not v.allowed and v.reason == "unreachable"


def test_evaluate_with_hops_judges_a_final_redirect_as_fetch_does():
    base = "https://e.com"
    # Five redirects followed, and a sixth: too many, as a 404 (Google).
    hops = [(f"{base}/robots.txt", 301)] + [(f"{base}/r{i}", 301) for i in range(1, 6)]
    result = policy.evaluate(base, 301, {"Location": f"{base}/r6"}, b"", hops=hops)
    assert (result.access, result.outcome) == ("allow-all", "unavailable (too many redirects)")
    assert result.hops == hops
    # Back to a URL taken earlier: a loop.
    hops = [(f"{base}/robots.txt", 302), (f"{base}/r1", 302)]
    result = policy.evaluate(base, 302, {"Location": "/robots.txt"}, b"", hops=hops)
    assert result.outcome == "unavailable (redirect loop)"
    # Within the limit, a redirect not followed: the file is unknown.
    result = policy.evaluate(base, 302, {"Location": "/r2"}, b"", hops=hops)
    assert result.access == "disallow-all"
    # The final body, reached through redirects, is obeyed.
    hops = [(f"{base}/robots.txt", 301), ("https://www.e.com/robots.txt", 200)]
    result = policy.evaluate(base, 200, {}, RULES, hops=hops)
    assert result.access == "obey" and result.hops == hops
    # The last hop is the response judged.
    with pytest.raises(ValueError, match="status must be 200"):
        policy.evaluate(base, 200, {}, RULES, hops=[(f"{base}/robots.txt", 301)])
    with pytest.raises(TypeError, match="hops"):
        policy.evaluate(base, 200, {}, RULES, hops=[1, 2])
    # The first request is for this site's robots.txt: another site's body
    # is no answer about this one.
    with pytest.raises(ValueError, match="first of hops"):
        policy.evaluate(base, 200, {}, RULES, hops=[("https://evil.org/robots.txt", 200)])
    result = policy.evaluate(base, 200, {}, RULES, hops=[("https://E.com:443/robots.txt", 200)])
    assert result.access == "obey"
    # Statuses in messages as Python writes them.
    with pytest.raises(ValueError, match="not 404$"):
        policy.evaluate(base, 200, {}, RULES, hops=[(f"{base}/robots.txt", 404)])
    with pytest.raises(ValueError, match="status None$"):
        policy.evaluate(base, 200, {}, RULES, hops=[(f"{base}/robots.txt", None), (f"{base}/x", 200)])
    # Pairs kept as JSON lists are pairs too.
    result = policy.evaluate(base, 200, {}, RULES, hops=[[f"{base}/robots.txt", 200]])
    assert result.access == "obey"
    with pytest.raises(ValueError, match="absolute"):
        policy.evaluate(base, 200, {}, RULES, hops=[("/robots.txt", 200)])
    with pytest.raises(ValueError, match="no response"):
        policy.evaluate(base, None, hops=[(f"{base}/robots.txt", 200)])
    # Past the limit, a body reached is no file crawlers obey (a client
    # that follows more redirects than crawlers do).
    six = [(f"{base}/robots.txt", 301)] + [(f"{base}/r{i}", 301) for i in range(1, 6)]
    hops = six + [(f"{base}/end", 200)]
    result = policy.evaluate(base, 200, {}, RULES, hops=hops)
    assert (result.access, result.outcome) == ("allow-all", "unavailable (too many redirects)")
    # So is a request that got no response there: it was never made.
    hops = six + [(f"{base}/end", None)]
    result = policy.evaluate(base, None, hops=hops)
    assert (result.access, result.outcome) == ("allow-all", "unavailable (too many redirects)")
    # A URL taken twice: the fetcher stopped at the loop.
    hops = [(f"{base}/robots.txt", 301), (f"{base}/a", 302), (f"{base}/robots.txt#x", 200)]
    result = policy.evaluate(base, 200, {}, RULES, hops=hops)
    assert (result.access, result.outcome) == ("allow-all", "unavailable (redirect loop)")
    hops = [(f"{base}/robots.txt#top", 301), (f"{base}/robots.txt", 200)]
    result = policy.evaluate(base, 200, {}, RULES, hops=hops)
    assert result.outcome == "unavailable (redirect loop)"
    # Every hop but the last is a redirect, to an http(s) or ftp URL.
    with pytest.raises(ValueError, match="redirect followed"):
        policy.evaluate(base, 200, {}, RULES, hops=[(f"{base}/a", 200), (f"{base}/b", 200)])
    with pytest.raises(ValueError, match="http, https or ftp"):
        policy.evaluate(base, 200, {}, RULES, hops=[("mailto:x@y", 200)])
    with pytest.raises(TypeError, match="status"):
        policy.evaluate(base, True, {}, RULES)


def test_a_result_judges_only_its_own_site():
    result = policy.evaluate("https://example.com/robots.txt", 200, {}, RULES)
    assert not result.is_allowed("a", "https://example.com/private/x")
    for other in ["https://other.com/private/x", "http://example.com/private/x",
                  "https://example.com:8443/private/x"]:
        with pytest.raises(ValueError, match="not governed"):
            result.is_allowed("a", other)
        with pytest.raises(ValueError, match="not governed"):
            result.decide("a", other)
