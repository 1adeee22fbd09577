"""The drop-ins: ``RobotFileParser`` (urllib.robotparser), ``Protego``
and Scrapy's parser, each with its peer's API and Google's verdicts."""

import datetime
import errno
import logging
import socket
import unittest
import urllib.error
import urllib.robotparser

import pytest

import robotrules
import robotrules.scrapy
from conftest import conformance, field_bytes
from sites import Site

BODY = """\
User-agent: *
Disallow: /private
Allow: /private/ok$
Disallow: /*.pdf$
Crawl-delay: 3
Request-rate: 2/10s 0800-1730
Visit-time: 0600-0845
Host: www.example.com
Sitemap: https://example.com/a.xml
Sitemap: https://example.com/b.xml

User-agent: MyBot
Disallow: /mine
Crawl-delay: 0.5
"""

FULL_UA = "Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)"


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


# -- urllib.robotparser ------------------------------------------------------


def parsed():
    rp = robotrules.RobotFileParser()
    rp.parse(BODY.splitlines())
    return rp


def test_robotfileparser_google_verdicts():
    rp = parsed()
    urllib_rp = urllib.robotparser.RobotFileParser()
    urllib_rp.parse(BODY.splitlines())
    # The longest match wins (urllib: the first).
    assert rp.can_fetch("AnyBot", "https://example.com/private/ok")
    assert not urllib_rp.can_fetch("AnyBot", "https://example.com/private/ok")
    # `$` and `*` are patterns (urllib: plain characters).
    assert not rp.can_fetch("AnyBot", "https://example.com/doc.pdf")
    assert urllib_rp.can_fetch("AnyBot", "https://example.com/doc.pdf")
    assert rp.can_fetch("AnyBot", "https://example.com/doc.pdf?page=2")
    # A named crawler ignores the * group; full User-Agent values work.
    assert rp.can_fetch("MyBot", "/private/x")
    assert rp.can_fetch(FULL_UA, "/private/x")
    assert not rp.can_fetch(FULL_UA, "/mine")
    assert rp.can_fetch("MyBot/1.0", "/doc.pdf")
    # bytes are accepted as urllib's callers sometimes pass them.
    assert not rp.can_fetch(b"AnyBot", b"/private")


def test_robotfileparser_attributes():
    rp = robotrules.RobotFileParser("https://example.com/robots.txt")
    assert (rp.url, rp.host, rp.path) == (
        "https://example.com/robots.txt", "example.com", "/robots.txt")
    # Nothing read yet: nothing allowed, as in urllib.
    assert rp.mtime() == 0 and not rp.can_fetch("a", "/")
    assert rp.crawl_delay("a") is None and rp.site_maps() is None
    rp.parse(BODY.splitlines())
    assert rp.mtime() > 0
    assert rp.crawl_delay("AnyBot") == 3 and isinstance(rp.crawl_delay("x"), int)
    assert rp.crawl_delay("MyBot") == 0.5
    rate = rp.request_rate("AnyBot")
    assert isinstance(rate, urllib.robotparser.RequestRate)
    assert rate == urllib.robotparser.RequestRate(2, 10)
    assert rp.request_rate("MyBot") is None
    assert rp.site_maps() == ["https://example.com/a.xml", "https://example.com/b.xml"]
    # As urllib prints it: named groups first, then the * group.
    assert str(rp) == (
        "User-agent: MyBot\nCrawl-delay: 0.5\nDisallow: /mine\n\n"
        "User-agent: *\nCrawl-delay: 3\nRequest-rate: 2/10\n"
        "Disallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$")
    rp.set_url("http://other.example:8080/robots.txt")
    assert rp.host == "other.example:8080"
    before = rp.mtime()
    rp.modified()
    assert rp.mtime() >= before


def test_robotfileparser_parse_forms():
    for body in (BODY, BODY.encode(), iter(BODY.splitlines()),
                 [l.encode() for l in BODY.splitlines()]):
        rp = robotrules.RobotFileParser()
        rp.parse(body)
        assert not rp.can_fetch("AnyBot", "/private")
    rp = robotrules.RobotFileParser()
    rp.parse([])
    assert rp.can_fetch("AnyBot", "/anything")
    # Marked read with no rules, as urllib: everything allowed.
    for rp in (robotrules.RobotFileParser(), urllib.robotparser.RobotFileParser()):
        assert not rp.can_fetch("AnyBot", "/anything")
        rp.modified()
        assert rp.can_fetch("AnyBot", "/anything")


@pytest.mark.parametrize("status, allowed, flags", [
    (404, True, (True, False)),
    (401, True, (True, False)),   # urllib: disallow all
    (403, True, (True, False)),   # urllib: disallow all
    (410, True, (True, False)),
    (429, False, (False, True)),  # urllib: allow all
    (500, False, (False, True)),  # urllib: no flag, nothing read: False
    (503, False, (False, True)),
])
def test_robotfileparser_read_statuses(site, status, allowed, flags):
    site.routes["/robots.txt"] = (status, {}, b"User-agent: *\nDisallow: /\n")
    rp = robotrules.RobotFileParser(site.base + "/robots.txt")
    rp.read()
    assert site.log == ["/robots.txt"]
    assert (rp.allow_all, rp.disallow_all) == flags
    assert rp.can_fetch("AnyBot", site.base + "/page") is allowed
    # No file was read: mtime() stays 0, as in urllib.
    theirs = urllib.robotparser.RobotFileParser(site.base + "/robots.txt")
    theirs.read()
    assert rp.mtime() == theirs.mtime() == 0


def test_robotfileparser_read_sets_mtime_only_for_a_file(site):
    site.routes["/robots.txt"] = (200, {}, b"User-agent: *\nDisallow: /p\n")
    rp = robotrules.RobotFileParser(site.base + "/robots.txt")
    rp.read()
    assert rp.mtime() > 0
    checked = rp.mtime()
    # A later failed read keeps the time of the file read before.
    site.routes["/robots.txt"] = (503, {}, b"")
    rp.read()
    assert rp.mtime() == checked and rp.disallow_all


def test_robotfileparser_read_follows_redirects(site):
    site.routes["/robots.txt"] = (301, {"Location": "/real-robots.txt"}, b"")
    site.routes["/real-robots.txt"] = (
        200, {}, b"User-agent: *\nDisallow: /private\nSitemap: /s.xml\n")
    rp = robotrules.RobotFileParser(site.base + "/robots.txt")
    rp.read()
    assert site.log == ["/robots.txt", "/real-robots.txt"]
    assert not rp.can_fetch("AnyBot", site.base + "/private/x")
    assert rp.can_fetch("AnyBot", site.base + "/public")
    assert rp.site_maps() == ["/s.xml"]


def test_robotfileparser_read_says_when_the_body_is_cut(site, caplog):
    # Over 500 KiB: read up to the limit (RFC 9309), and said so.
    body = b"User-agent: *\nDisallow: /private\n" + b"# pad\n" * 100_000
    body += b"Disallow: /late\n"
    site.routes["/robots.txt"] = (200, {}, body)
    rp = robotrules.RobotFileParser(site.base + "/robots.txt")
    with caplog.at_level("WARNING", logger="robotrules"):
        rp.read()
    assert rp.fetch_result.truncated and rp.fetch_result.status == 200
    assert any("over 500 KiB" in r.getMessage() for r in caplog.records)
    assert not rp.can_fetch("AnyBot", site.base + "/private")
    assert rp.can_fetch("AnyBot", site.base + "/late")
    # A body within the limit: no warning.
    caplog.clear()
    site.routes["/robots.txt"] = (200, {}, b"User-agent: *\nDisallow: /late\n")
    with caplog.at_level("WARNING", logger="robotrules"):
        rp.read()
    assert not rp.fetch_result.truncated
    assert not caplog.records
    assert not rp.can_fetch("AnyBot", site.base + "/late")


def test_robotfileparser_read_unreachable():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/robots.txt"
    # As urllib: no HTTP answer raises URLError (an OSError) ...
    with pytest.raises(urllib.error.URLError):
        urllib.robotparser.RobotFileParser(url).read()
    rp = robotrules.RobotFileParser(url)
    with pytest.raises(urllib.error.URLError, match="connection refused") as e:
        rp.read()
    # Its reason is the OSError urllib's holds.
    assert isinstance(e.value.reason, ConnectionRefusedError)
    assert e.value.reason.errno == errno.ECONNREFUSED
    # ... but the state is RFC 9309's: unreachable means disallow all.
    assert rp.disallow_all and not rp.can_fetch("AnyBot", "/")
    assert rp.mtime() == 0 and rp.fetch_result.status is None


def test_public_dropin_modules():
    from robotrules.protego import Protego, RequestRate, VisitTime
    from robotrules.robotparser import RobotFileParser
    from robotrules.robotparser import RequestRate as UrllibRate

    p = Protego.parse("User-agent: *\nRequest-rate: 1/5\nVisit-time: 0100-0200\n")
    assert isinstance(p.request_rate("x"), RequestRate)
    assert isinstance(p.visit_time("x"), VisitTime)
    assert RobotFileParser is robotrules.RobotFileParser
    rp = RobotFileParser()
    rp.parse(["User-agent: *", "Request-rate: 1/5"])
    assert isinstance(rp.request_rate("x"), UrllibRate)
    assert UrllibRate is urllib.robotparser.RequestRate


def test_robotfileparser_read_errors_read_as_urllib_errors():
    # CPython's own tests of urllib.robotparser skip their network tests
    # on these errors, by their reason (test.support.socket_helper).
    support = pytest.importorskip("test.support.socket_helper")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for url in (f"http://127.0.0.1:{port}/robots.txt",
                "http://name-that-does-not-resolve.invalid/robots.txt"):
        for parser in (robotrules.RobotFileParser(url),
                       urllib.robotparser.RobotFileParser(url)):
            with pytest.raises(unittest.SkipTest):
                with support.transient_internet(url):
                    parser.read()


def test_robotfileparser_read_waits_as_sockets_do():
    # A server that accepts and never answers: urllib's wait is the
    # sockets' default timeout, and so is the drop-in's.
    import time
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        url = f"http://127.0.0.1:{server.getsockname()[1]}/robots.txt"
        before = socket.getdefaulttimeout()
        socket.setdefaulttimeout(0.5)
        try:
            start = time.monotonic()
            rp = robotrules.RobotFileParser(url)
            with pytest.raises(urllib.error.URLError) as e:
                rp.read()
            assert time.monotonic() - start < 10
        finally:
            socket.setdefaulttimeout(before)
    assert isinstance(e.value.reason, TimeoutError)
    assert rp.disallow_all


def test_robotfileparser_read_bad_url():
    rp = robotrules.RobotFileParser("not a url")
    with pytest.raises(ValueError, match="url"):
        rp.read()


# -- Protego -----------------------------------------------------------------


def test_protego_api():
    rp = robotrules.Protego.parse(BODY)
    assert not rp.can_fetch("https://example.com/private", "AnyBot")
    assert rp.can_fetch("https://example.com/private/ok", "AnyBot")
    assert rp.can_fetch("https://example.com/private", FULL_UA)
    assert not rp.can_fetch("/mine", FULL_UA)
    assert rp.crawl_delay("AnyBot") == 3.0 and rp.crawl_delay(FULL_UA) == 0.5
    rate = rp.request_rate("AnyBot")
    assert rate == robotrules._protego.RequestRate(
        2, 10, datetime.time(8, 0), datetime.time(17, 30))
    assert (rate.requests, rate.seconds) == (2, 10)
    assert rp.request_rate("MyBot") is None
    visit = rp.visit_time("AnyBot")
    assert visit == (datetime.time(6, 0), datetime.time(8, 45))
    assert visit.start_time == datetime.time(6, 0)
    assert rp.visit_time("MyBot") is None
    assert list(rp.sitemaps) == ["https://example.com/a.xml", "https://example.com/b.xml"]
    assert rp.preferred_host == "www.example.com"
    with pytest.raises(ValueError, match="str"):  # as Protego before 0.4
        robotrules.Protego.parse(BODY.encode())
    with pytest.raises(TypeError, match="str"):  # as Protego since
        robotrules.Protego.parse(BODY.encode())
    # The site's robots.txt is always allowed (RFC 9309 §2.2.2), as in
    # Protego; only that path, without a query.
    closed = robotrules.Protego.parse("User-agent: *\nDisallow: /\n")
    assert closed.can_fetch("https://example.com/robots.txt", "AnyBot")
    assert closed.can_fetch("/robots.txt", "AnyBot")
    assert not closed.can_fetch("/robots.txt?x=1", "AnyBot")
    assert not closed.can_fetch("/robots.txt.bak", "AnyBot")
    empty = robotrules.Protego.parse("")
    assert empty.can_fetch("/anything", "AnyBot")
    assert empty.crawl_delay("a") is None and empty.preferred_host is None


GOOGLE = conformance("google_cases.json")


@pytest.mark.parametrize("case", GOOGLE, ids=[c["name"] for c in GOOGLE])
def test_dropins_give_googles_verdicts(case):
    """Every reference case through each drop-in, with the reference's
    answer: URLs are matched as given, crawler names as product tokens."""
    body = field_bytes(case, "robotstxt")
    agent, url, want = case["useragent"], case["url"], case["allowed"]
    if "robotstxt" in case:
        protego = robotrules.Protego.parse(case["robotstxt"])
        assert protego.can_fetch(url, agent) is want
    rp = robotrules.RobotFileParser()
    rp.parse(body)
    assert rp.can_fetch(agent, url) is want
    scrapy_rp = robotrules.scrapy.RobotRulesParser(body, None)
    assert scrapy_rp.allowed(url.encode(), agent.encode()) is want


# -- Scrapy ------------------------------------------------------------------


def test_scrapy_parser_interface():
    scrapy = pytest.importorskip("scrapy")
    from scrapy.robotstxt import RobotParser
    from scrapy.utils.test import get_crawler

    from robotrules.scrapy import RobotRulesParser

    assert issubclass(RobotRulesParser, RobotParser)
    crawler = get_crawler(settings_dict={
        "ROBOTSTXT_PARSER": "robotrules.scrapy.RobotRulesParser"})
    rp = RobotRulesParser.from_crawler(crawler, BODY.encode())
    assert not rp.allowed("https://example.com/private", b"AnyBot/1.0")
    assert rp.allowed(b"https://example.com/private", FULL_UA.encode())
    assert rp.crawl_delay(FULL_UA) == 0.5 and rp.crawl_delay("x") == 3.0
    assert RobotRulesParser.from_crawler(None, b"").allowed("/x", "a")
    del scrapy


def test_scrapy_parser_undecodable_body(caplog):
    from robotrules.scrapy import RobotRulesParser

    body = b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /x\n"
    with caplog.at_level(logging.WARNING, logger="robotrules.scrapy"):
        rp = RobotRulesParser(body, None)
    assert any("not valid UTF-8" in r.getMessage() for r in caplog.records)
    # The rules are still obeyed, byte for byte.
    assert not rp.allowed("https://example.com/x", "AnyBot")
    assert not rp.allowed("https://example.com/caf%E9", "AnyBot")
    assert rp.allowed("https://example.com/cafe", "AnyBot")
    # Garbage never crashes.
    garbage = bytes(range(256)) * 64
    assert RobotRulesParser(garbage, None).allowed("https://e.com/", "AnyBot")


def test_full_user_agents_name_the_crawler_not_their_words():
    # A file that names words of the header's URL and browser products:
    # only the crawler's own product counts.
    body = (
        "User-agent: Mozilla\nAllow: /\n\n"
        "User-agent: https\nAllow: /\n\n"
        "User-agent: GPTBot\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /private\n"
    )
    gpt = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
    mine = "Mozilla/5.0 (compatible; MyBot/1.0; +https://127.0.0.1/bot)"
    scrapy = "Scrapy/2.13.0 (+https://scrapy.org)"
    robots = robotrules.Robots.parse(body.encode())
    assert robots.agent_for(gpt) == "GPTBot"
    assert robots.agent_for(mine) == "MyBot"
    assert robots.agent_for(scrapy) == "Scrapy"
    protego = robotrules.Protego.parse(body)
    parser = robotrules.scrapy.RobotRulesParser(body.encode(), None)
    for check in (protego.can_fetch, lambda url, ua: parser.allowed(url, ua)):
        assert not check("https://example.com/a", gpt)
        assert check("https://example.com/a", mine)
        assert not check("https://example.com/private/a", mine)
        assert not check("https://example.com/private/a", scrapy)


def test_user_agents_named_by_several_words_or_dotted_names():
    # `Sogou web spider/4.0` is the file's `Sogou` (its first word), not
    # `spider` nor the `Web` of `User-agent: Web Downloader`;
    # `archive.org_bot` is the file's `archive`, not `org_bot`; `Screaming
    # Frog SEO Spider/19.0` in a comment is `Screaming`: on every
    # drop-in, and as `robotrules check --user-agent` reads them.
    body = (
        "User-agent: Sogou web spider\nAllow: /\n\n"
        "User-agent: Web Downloader\nDisallow: /\n\n"
        "User-agent: archive.org_bot\nDisallow: /\n\n"
        "User-agent: Mail.RU_Bot\nDisallow: /\n\n"
        "User-agent: Screaming Frog SEO Spider\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /private\n"
    )
    frog = "Mozilla/5.0 (compatible; Screaming Frog SEO Spider/19.0)"
    sogou = "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)"
    archive = "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)"
    robots = robotrules.Robots.parse(body.encode())
    assert robots.agent_for(sogou) == "Sogou"
    assert robots.agent_for(archive) == "archive"
    assert robots.agent_for("archive.org_bot/3.0") == "archive"
    assert robots.agent_for("Mail.RU_Bot/2.0") == "Mail"
    assert robots.agent_for(frog) == "Screaming"
    rp = robotrules.RobotFileParser()
    rp.parse(body.splitlines())
    protego = robotrules.Protego.parse(body)
    parser = robotrules.scrapy.RobotRulesParser(body.encode(), None)
    checks = (
        rp.can_fetch,
        lambda ua, url: protego.can_fetch(url, ua),
        lambda ua, url: parser.allowed(url, ua),
    )
    for check in checks:
        assert check(sogou, "https://example.com/private/a")
        for ua in (archive, "archive.org_bot/3.0", "Mail.RU_Bot/2.0", frog):
            assert not check(ua, "https://example.com/a"), ua


def test_user_agents_of_one_crawler_share_its_matcher():
    # A spider that rotates its User-Agent (versions, browser strings)
    # gets one matcher per crawler name, not one per header.
    body = b"User-agent: MyBot\nDisallow: /mine\n\nUser-agent: *\nDisallow: /private\n"
    parser = robotrules.scrapy.RobotRulesParser(body, None)
    protego = robotrules.Protego.parse(body.decode())
    urllib_like = robotrules.RobotFileParser()
    urllib_like.parse(body.decode().splitlines())
    for matchers in (parser._matchers, protego._matchers, urllib_like._matchers):
        mine = {id(matchers.get(f"Mozilla/5.0 (compatible; MyBot/1.{v})")) for v in range(50)}
        assert len(mine) == 1
        other = {id(matchers.get(f"Mozilla/5.0 (X11; Linux) Chrome/120.0.{v} Safari/537.36")) for v in range(50)}
        assert len(other) == 1
    assert not parser.allowed("https://example.com/mine", "Mozilla/5.0 (compatible; MyBot/1.7)")
    assert not parser.allowed("https://example.com/private", "Mozilla/5.0 (X11; Linux) Chrome/120.0.9 Safari/537.36")


def test_the_urllib_dropin_reads_file_urls(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY.encode())
    rp = robotrules.RobotFileParser(path.as_uri())
    rp.read()
    assert rp.robots is not None and rp.mtime() > 0
    assert not rp.can_fetch("AnyBot", "https://example.com/private")
    assert rp.can_fetch("AnyBot", "https://example.com/private/ok")
    assert rp.site_maps() == ["https://example.com/a.xml", "https://example.com/b.xml"]
    # A missing file raises, as urllib's read() does.
    missing = robotrules.RobotFileParser((tmp_path / "none.txt").as_uri())
    with pytest.raises(OSError):
        missing.read()
    with pytest.raises(OSError):
        urllib.robotparser.RobotFileParser((tmp_path / "none.txt").as_uri()).read()


def test_protego_passes_over_empty_sitemap_lines():
    rp = robotrules.Protego.parse("Sitemap:\nSitemap: https://example.com/s.xml\n")
    assert list(rp.sitemaps) == ["https://example.com/s.xml"]


def test_scrapy_parser_str_body_with_escaped_bytes(caplog):
    from robotrules.scrapy import RobotRulesParser

    raw = b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /private\n"
    text = raw.decode("utf-8", "surrogateescape")
    with caplog.at_level(logging.WARNING, logger="robotrules.scrapy"):
        rp = RobotRulesParser(text, None)
    assert caplog.records
    # The bytes come back: every rule is obeyed, as for the bytes.
    assert not rp.allowed("https://example.com/private", "AnyBot")
    assert not rp.allowed("https://example.com/caf%E9", "AnyBot")
    # Other lone surrogates are replaced; the other rules still stand.
    rp = RobotRulesParser("User-agent: *\nDisallow: /\ud800x\nDisallow: /private\n", None)
    assert not rp.allowed("https://example.com/private", "AnyBot")


def test_white_space_around_a_crawler_name_is_not_part_of_it():
    body = "User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n"
    p = robotrules.Protego.parse(body)
    rp = robotrules.RobotFileParser()
    rp.parse(body.splitlines())
    for name in ["MyBot", "MyBot ", " MyBot", "MyBot\n"]:
        assert p.can_fetch("https://e.com/a", name), repr(name)
        assert rp.can_fetch(name, "https://e.com/a"), repr(name)
        assert not p.can_fetch("https://e.com/private", name), repr(name)


def test_the_scrapy_parser_always_allows_robots_txt():
    from robotrules.scrapy import RobotRulesParser
    parser = RobotRulesParser(b"User-agent: *\nDisallow: /*.txt$\n", None)
    assert parser.allowed("https://e.com/robots.txt", b"Scrapy/2.11")
    assert not parser.allowed("https://e.com/a.txt", b"Scrapy/2.11")
