"""``robotrules.RobotFileParser``: ``urllib.robotparser.RobotFileParser``
with Google's verdicts (RFC 9309) and RFC 9309's fetch rules."""

from __future__ import annotations

import errno
import http.client
import logging
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterable, Optional, Union
from urllib.robotparser import RequestRate

from ._agents import Matchers, text
from ._native import Robots, fetch

__all__ = ["RequestRate", "RobotFileParser"]

logger = logging.getLogger(__name__)


def _delay(seconds):
    # urllib returns an int; keep one where the file gives a whole number.
    if seconds is None:
        return None
    return int(seconds) if float(seconds).is_integer() else seconds


def _no_answer(outcome: str) -> OSError:
    """The ``OSError`` that urllib's ``URLError`` holds for a fetch that got
    no HTTP answer, from what the fetch came to."""
    if "cannot resolve" in outcome:
        return socket.gaierror(socket.EAI_NONAME, outcome)
    if "connection refused" in outcome:
        return ConnectionRefusedError(errno.ECONNREFUSED, outcome)
    if "(timeout)" in outcome:
        return TimeoutError(errno.ETIMEDOUT, outcome)
    if "connection reset" in outcome:
        return ConnectionResetError(errno.ECONNRESET, outcome)
    if "connection closed" in outcome:
        return http.client.RemoteDisconnected(outcome)
    return OSError(outcome)


class RobotFileParser:
    """A drop-in for ``urllib.robotparser.RobotFileParser``.

    Same methods, and urllib's attributes ``url``, ``host``, ``path``,
    ``last_checked``, ``disallow_all``, ``allow_all`` and ``sitemaps``
    (urllib's parsed ``entries`` are not kept: ``robots`` is the parsed
    file; ``fetch_result`` is what the last ``read()`` of an http(s) or
    ftp URL came to: its status, outcome, whether the body was cut at
    500 KiB). The answers are those of Google's reference parser: the
    longest matching rule wins, ``*`` and ``$`` work, groups for the same
    crawler merge. ``read()`` follows RFC 9309: 401 and 403 mean "no
    robots.txt" (allow all) like other 4xx, while 429, 5xx and network
    failures mean "disallow all" (urllib allows all, raises, or refuses
    everything until a later read). The crawler name may be a product
    token or a full ``User-Agent`` value.
    """

    def __init__(self, url: str = "") -> None:
        self.sitemaps = []
        self.disallow_all = False
        self.allow_all = False
        self.last_checked = 0
        self._robots = None
        self._matchers = None
        self.fetch_result = None
        self.set_url(url)

    def mtime(self) -> float:
        """The time the robots.txt was last fetched or parsed (0: never)."""
        return self.last_checked

    def modified(self) -> None:
        """Sets the time the robots.txt was last fetched to now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Sets the URL of the robots.txt."""
        self.url = url
        self.host, self.path = urllib.parse.urlparse(url)[1:3]

    def read(self) -> None:
        """Fetches the robots.txt of the site of ``url`` (its
        ``/robots.txt``, RFC 9309 §2.3) and parses it.

        RFC 9309 §2.3.1: a 2xx is parsed (at most 500 KiB), up to 5
        redirects are followed, a 4xx (401 and 403 included) allows all,
        and 429, 5xx or a network failure disallows all. Blocks without
        holding the GIL. As in urllib, ``mtime()`` is set only when a file
        was read, and a network failure (no HTTP answer: the host cannot
        be resolved or reached, the connection breaks or times out)
        raises ``urllib.error.URLError``, after ``disallow_all`` is set;
        an HTTP status never raises.

        A ``file:`` URL is read from disk, as urllib reads it (an error
        reading it raises, as in urllib).
        """
        if urllib.parse.urlsplit(self.url).scheme.lower() == "file":
            with urllib.request.urlopen(self.url) as f:
                body = f.read()
            self.disallow_all = self.allow_all = False
            self._set(Robots.parse(body))
            self.modified()
            return
        # urllib's requests wait as long as sockets do by default (set by
        # socket.setdefaulttimeout; none set: the fetch's own 30 seconds).
        wait = socket.getdefaulttimeout()
        if wait is not None:
            wait = min(max(wait, 0.001), 86400.0)
        result = fetch(self.url, timeout=wait)
        self.fetch_result = result
        if result.truncated:
            logger.warning(
                "%s is over 500 KiB: only its first 500 KiB are read, as "
                "RFC 9309 allows",
                result.url,
            )
        self.disallow_all = result.access == "disallow-all"
        self.allow_all = result.access == "allow-all"
        if result.robots is not None:
            self._set(result.robots)
            self.modified()
        elif result.status is None:
            # No HTTP answer at all: urllib raises, and so does this.
            raise urllib.error.URLError(_no_answer(result.outcome))

    def parse(
        self, lines: Union[Iterable[str], Iterable[bytes], str, bytes]
    ) -> None:
        """Parses the lines of a robots.txt (an iterable of ``str``; a
        whole body as ``str`` or ``bytes`` is accepted too)."""
        if isinstance(lines, (str, bytes, bytearray)):
            body = lines
        else:
            try:
                items = list(lines)
            except TypeError:
                raise TypeError(
                    "lines must be an iterable of str, not "
                    f"{type(lines).__name__}"
                ) from None
            if all(isinstance(i, (bytes, bytearray)) for i in items) and items:
                body = b"\n".join(bytes(i).rstrip(b"\r\n") for i in items)
            elif all(isinstance(i, str) for i in items):
                body = "\n".join(i.rstrip("\r\n") for i in items)
            else:
                bad = next(i for i in items if not isinstance(i, str))
                raise TypeError(
                    f"each item of lines must be str, not {type(bad).__name__}"
                )
        self.modified()
        self._set(Robots.parse(body))

    @property
    def robots(self) -> Optional[Robots]:
        """The parsed robots.txt, or None before ``read()`` or ``parse()``
        gave one (a later ``read()`` that gets no file keeps it, as urllib
        keeps its entries; ``allow_all`` or ``disallow_all`` then
        decide)."""
        return self._robots

    def _set(self, robots):
        self._robots = robots
        self._matchers = Matchers(robots)
        self.sitemaps = [s.url for s in robots.sitemaps]

    def can_fetch(
        self, useragent: Union[str, bytes], url: Union[str, bytes]
    ) -> bool:
        """Returns True if the crawler ``useragent`` may fetch ``url``.

        False until the file has been read or parsed, or ``modified()``
        called, as in urllib (which then knows no rules: True).
        """
        useragent = text(useragent, "useragent")
        url = text(url, "url")
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        if not self.last_checked:
            return False
        if self._matchers is None:
            return True
        return self._matchers.is_allowed(useragent, url)

    def crawl_delay(
        self, useragent: Union[str, bytes]
    ) -> Optional[Union[int, float]]:
        """The ``crawl-delay`` of the crawler's groups, in seconds, or None."""
        useragent = text(useragent, "useragent")
        if not self.mtime() or self._matchers is None:
            return None
        return _delay(self._matchers.get(useragent).crawl_delay)

    def request_rate(
        self, useragent: Union[str, bytes]
    ) -> Optional[RequestRate]:
        """The ``request-rate`` of the crawler's groups, as
        ``RequestRate(requests, seconds)``, or None."""
        useragent = text(useragent, "useragent")
        if not self.mtime() or self._matchers is None:
            return None
        rate = self._matchers.get(useragent).request_rate
        if rate is None:
            return None
        return RequestRate(rate.requests, rate.seconds)

    def site_maps(self) -> Optional[list[str]]:
        """The ``sitemap`` URLs, or None if there are none."""
        return list(self.sitemaps) or None

    def __str__(self) -> str:
        """The groups as urllib prints them: the named groups, then the
        ``*`` groups, each with its agents, delay, rate and rules."""
        if self._robots is None:
            return ""
        groups = self._robots.groups
        ordered = [g for g in groups if not g.is_global]
        ordered += [g for g in groups if g.is_global]
        return "\n\n".join(_group_text(g) for g in ordered)


def _group_text(group):
    lines = [f"User-agent: {a.value}" for a in group.agents]
    if group.crawl_delay is not None:
        lines.append(f"Crawl-delay: {_delay(group.crawl_delay)}")
    rate = group.request_rate
    if rate is not None:
        lines.append(f"Request-rate: {rate.requests}/{rate.seconds}")
    lines += [f"{r.kind.capitalize()}: {r.pattern}" for r in group.rules]
    return "\n".join(lines)
