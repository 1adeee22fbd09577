"""A real Scrapy crawl of a site served on 127.0.0.1, with
ROBOTSTXT_OBEY and the robotrules parser: the server's own log says what
was requested."""

import http.server
import os
import pathlib
import subprocess
import sys
import textwrap
import threading

import pytest

pytest.importorskip("scrapy")

ROBOTS = """\
# Everyone else: nothing.
User-agent: *
Disallow: /

# The spider's own group (named by its product token).
User-agent: ExampleSpider
User-agent: OtherSpider
Disallow: /private/
Allow: /private/public-*.html$
Disallow: /*.pdf$
Disallow: /*?session=
Disallow: /search
Allow: /search/about
"""

# Each page and the pages it links to.
LINKS = {
    "/": ["/a.html", "/b.html", "/private/secret.html",
          "/private/public-1.html", "/private/public-1.html.bak",
          "/docs/report.pdf", "/docs/report.pdf?download=1",
          "/page.html?session=123", "/page.html?lang=en", "/search",
          "/search/about", "/search?q=robots"],
    "/a.html": ["/c.html", "/private/x.html", "/b.html"],
    "/b.html": ["/d.PDF", "/"],
    "/c.html": [],
}

ALLOWED = {"/", "/a.html", "/b.html", "/c.html", "/private/public-1.html",
           "/docs/report.pdf?download=1", "/page.html?lang=en",
           "/search/about", "/d.PDF"}
DISALLOWED = {"/private/secret.html", "/private/public-1.html.bak",
              "/private/x.html", "/docs/report.pdf", "/page.html?session=123",
              "/search", "/search?q=robots"}


class Site(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.log = []
        self.lock = threading.Lock()
        # The robots.txt served (`{port}` is the server's port).
        self.robots = ROBOTS


# A sitemap that lists one allowed and one disallowed page.
SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://127.0.0.1:{port}/a.html</loc></url>
<url><loc>http://127.0.0.1:{port}/private/secret.html</loc></url>
</urlset>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with self.server.lock:
            self.server.log.append(self.path)
        port = self.server.server_address[1]
        if self.path == "/robots.txt":
            body = self.server.robots.replace("{port}", str(port)).encode()
            kind = "text/plain"
        elif self.path == "/sitemap.xml":
            body, kind = SITEMAP.format(port=port).encode(), "text/xml"
        else:
            links = LINKS.get(self.path, [])
            anchors = "".join(f'<a href="{l}">{l}</a>\n' for l in links)
            body = f"<html><body>{anchors}</body></html>".encode()
            kind = "text/html"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


SPIDER = textwrap.dedent('''
    import sys
    import scrapy
    from scrapy.crawler import CrawlerProcess

    def closed(self, reason):
        # Which parser the robots.txt middleware used.
        for mw in self.crawler.engine.downloader.middleware.middlewares:
            for parser in getattr(mw, "_parsers", {}).values():
                kind = type(parser)
                print(f"parser: {kind.__module__}.{kind.__qualname__}")

    class Links(scrapy.Spider):
        name = "example"
        allowed_domains = ["127.0.0.1"]
        start_urls = [sys.argv[1]]

        def parse(self, response):
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, self.parse)

    class Sitemaps(scrapy.spiders.SitemapSpider):
        name = "sitemaps"
        # The site's sitemaps, as its robots.txt lists them.
        sitemap_urls = [sys.argv[1] + "robots.txt"]

        def parse(self, response):
            pass

    Spider = Sitemaps if sys.argv[3] == "sitemaps" else Links
    for kind in (Links, Sitemaps):
        kind.closed = closed


    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "ROBOTSTXT_PARSER": "robotrules.scrapy.RobotRulesParser",
        "USER_AGENT": sys.argv[2],
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 4,
        "RETRY_ENABLED": False,
    })
    process.crawl(Spider)
    process.start()
''')


@pytest.fixture
def site():
    server = Site()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def crawl(site, tmp_path, user_agent, spider="links"):
    script = tmp_path / "spider.py"
    script.write_text(SPIDER)
    url = f"http://127.0.0.1:{site.server_address[1]}/"
    out = subprocess.run(
        [sys.executable, str(script), url, user_agent, spider],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "parser: robotrules.scrapy.RobotRulesParser"
    return out.stderr


@pytest.mark.parametrize("user_agent", [
    "Mozilla/5.0 (compatible; ExampleSpider/1.0; +http://127.0.0.1/bot)",
    "OtherSpider/2.1 (+http://127.0.0.1/bot)",
])
def test_scrapy_obeys_robotrules(site, tmp_path, user_agent):
    log = crawl(site, tmp_path, user_agent)
    requested = set(site.log)
    assert site.log.count("/robots.txt") == 1
    # Nothing disallowed was requested, and every allowed page linked was.
    assert not requested & DISALLOWED, requested & DISALLOWED
    assert requested - {"/robots.txt"} == ALLOWED
    # Scrapy counted each disallowed link as forbidden by robots.txt.
    assert f"'robotstxt/forbidden': {len(DISALLOWED)}" in log


def test_scrapy_other_crawlers_get_the_star_group(site, tmp_path):
    crawl(site, tmp_path, "Mozilla/5.0 (compatible; SomeoneElse/1.0)")
    assert set(site.log) == {"/robots.txt"}


def test_a_sitemap_spider_reads_robots_txt_whatever_its_rules(site, tmp_path):
    # The file's rules disallow `/robots.txt` itself, which crawlers may
    # always fetch (RFC 9309 §2.2.2): the spider reads its sitemaps from
    # it, then follows what they list and the rules allow.
    site.robots = (
        "User-agent: *\nDisallow: /*.txt$\nDisallow: /private/\n"
        "Sitemap: http://127.0.0.1:{port}/sitemap.xml\n"
    )
    crawl(site, tmp_path, "SitemapBot/1.0", spider="sitemaps")
    requested = set(site.log)
    assert {"/robots.txt", "/sitemap.xml", "/a.html"} <= requested, site.log
    assert "/private/secret.html" not in requested
