"""``robotrules.Protego``: Protego's API with Google's verdicts."""

from __future__ import annotations

import datetime
from typing import Iterator, NamedTuple, Optional, Union

from ._agents import Matchers, text
from ._native import Robots, path_of

__all__ = ["Protego", "RequestRate", "VisitTime"]


class RequestRate(NamedTuple):
    """``requests`` per ``seconds``, between ``start_time`` and
    ``end_time`` (UTC) if the file gives a window."""

    requests: int
    seconds: int
    start_time: Optional[datetime.time]
    end_time: Optional[datetime.time]


class VisitTime(NamedTuple):
    """A daily window (UTC) in which to crawl."""

    start_time: datetime.time
    end_time: datetime.time


class _NotText(TypeError, ValueError):
    """Content that is not a ``str``: caught as Protego's error, whichever
    version raised which."""


def _time(minutes):
    return datetime.time(minutes // 60 % 24, minutes % 60)


class Protego:
    """A drop-in for ``protego.Protego``: ``Protego.parse(content)``, then
    ``can_fetch(url, user_agent)``, ``crawl_delay``, ``request_rate``,
    ``visit_time``, ``sitemaps`` and ``preferred_host``.

    The answers are those of Google's reference parser; ``user_agent`` may
    be a product token or a full ``User-Agent`` value.
    """

    __slots__ = ("_robots", "_matchers")

    def __init__(self, robots: Optional[Robots] = None) -> None:
        if robots is None:
            robots = Robots.parse(b"")
        self._robots = robots
        self._matchers = Matchers(robots)

    @classmethod
    def parse(cls, content: str) -> Protego:
        """Parses a robots.txt body, a ``str``. As in Protego, anything
        else (``bytes`` too: decode them, or use ``robotrules.Robots.parse``)
        raises an error that is both a ``TypeError`` (Protego 0.4 on) and a
        ``ValueError`` (earlier Protego)."""
        if not isinstance(content, str):
            raise _NotText(
                f"Protego.parse expects str, got {type(content).__name__}"
            )
        return cls(Robots.parse(content))

    def can_fetch(
        self, url: Union[str, bytes], user_agent: Union[str, bytes]
    ) -> bool:
        """Returns True if the crawler ``user_agent`` may fetch ``url``."""
        url = text(url, "url")
        user_agent = text(user_agent, "user_agent")
        if path_of(url) == "/robots.txt":
            # Always allowed (RFC 9309 §2.2.2), as in Protego.
            return True
        return self._matchers.is_allowed(user_agent, url)

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The crawler's ``crawl-delay`` in seconds, or None."""
        return self._matchers.get(text(user_agent, "user_agent")).crawl_delay

    def request_rate(
        self, user_agent: Union[str, bytes]
    ) -> Optional[RequestRate]:
        """The crawler's ``request-rate`` as ``RequestRate(requests,
        seconds, start_time, end_time)``, or None."""
        rate = self._matchers.get(text(user_agent, "user_agent")).request_rate
        if rate is None:
            return None
        window = rate.window
        if window is None:
            return RequestRate(rate.requests, rate.seconds, None, None)
        return RequestRate(
            rate.requests, rate.seconds, _time(window.start), _time(window.end)
        )

    def visit_time(
        self, user_agent: Union[str, bytes]
    ) -> Optional[VisitTime]:
        """The crawler's ``visit-time`` as ``VisitTime(start_time,
        end_time)``, or None."""
        window = self._matchers.get(text(user_agent, "user_agent")).visit_time
        if window is None:
            return None
        return VisitTime(_time(window.start), _time(window.end))

    @property
    def sitemaps(self) -> Iterator[str]:
        """An iterator over the ``sitemap`` URLs."""
        # Protego passes over a `sitemap` line with no URL.
        return iter([s.url for s in self._robots.sitemaps if s.url])

    @property
    def preferred_host(self) -> Optional[str]:
        """The first valid ``host`` directive's value as written (a host
        name with a port if any, or an ``http(s)://`` URL of one, as Yandex
        allows), or None."""
        return self._robots.host
