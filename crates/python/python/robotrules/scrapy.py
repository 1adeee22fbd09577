"""``robotrules.scrapy.RobotRulesParser``: a robots.txt parser for Scrapy
with Google's verdicts. Enable it in the project's settings::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotrules.scrapy.RobotRulesParser"

Scrapy passes the request's full ``User-Agent`` header (or
``ROBOTSTXT_USER_AGENT``); the crawler name checked is the product token
it stands for in the file: a product of the header that a ``user-agent``
line or the built-in catalogue names, else its first product that is not
a browser's (``MyBot`` in ``Mozilla/5.0 (compatible; MyBot/1.0;
+https://...)``); see ``Robots.agent_for``.

Scrapy's ``RobotsTxtMiddleware`` hands the parser the body of whatever
response came: RFC 9309's status rules (a 5xx disallows everything) and
its 500 KiB limit are Scrapy's, not this parser's.
"""

from __future__ import annotations

import logging
from typing import Any, Optional, Union

from ._agents import Matchers, text
from ._native import Robots, path_of

try:
    from scrapy.robotstxt import RobotParser as _Base
except ImportError:  # Scrapy is only needed to run it, not to import it.
    _Base = object

__all__ = ["RobotRulesParser"]

logger = logging.getLogger(__name__)


class RobotRulesParser(_Base):
    """Scrapy's ``RobotParser`` interface over ``robotrules.Robots``."""

    def __init__(
        self, robotstxt_body: Union[bytes, str, None], spider: Any
    ) -> None:
        self.spider = spider
        if robotstxt_body is None:
            robotstxt_body = b""
        if isinstance(robotstxt_body, (bytes, bytearray)):
            try:
                bytes(robotstxt_body).decode("utf-8")
            except UnicodeDecodeError:
                # Scrapy's own parsers log this too; here the bytes are
                # still matched as they are, as Google's parser does.
                logger.warning(
                    "robots.txt is not valid UTF-8: its rules are matched "
                    "byte for byte, as Google's parser does",
                    exc_info=True,
                    extra={"spider": spider},
                )
        elif isinstance(robotstxt_body, str):
            try:
                robotstxt_body.encode("utf-8")
            except UnicodeEncodeError:
                # Lone surrogates: bytes decoded with ``surrogateescape``
                # get their bytes back; any others are replaced.
                logger.warning(
                    "robots.txt is not valid Unicode: its undecodable bytes "
                    "are matched as they were",
                    exc_info=True,
                    extra={"spider": spider},
                )
                try:
                    robotstxt_body = robotstxt_body.encode("utf-8", "surrogateescape")
                except UnicodeEncodeError:
                    robotstxt_body = robotstxt_body.encode("utf-8", "replace")
        else:
            raise TypeError(
                "robotstxt_body must be bytes or str, not "
                f"{type(robotstxt_body).__name__}"
            )
        self.robots = Robots.parse(robotstxt_body)
        self._matchers = Matchers(self.robots)

    @classmethod
    def from_crawler(
        cls, crawler: Any, robotstxt_body: Union[bytes, str, None]
    ) -> RobotRulesParser:
        """The parser of ``robotstxt_body`` (the response body, bytes) for
        ``crawler``'s spider."""
        spider = None if not crawler else crawler.spider
        return cls(robotstxt_body, spider)

    def allowed(
        self, url: Union[str, bytes], user_agent: Union[str, bytes]
    ) -> bool:
        """Returns True if ``user_agent`` (a full ``User-Agent`` value or a
        product token, str or bytes) may fetch ``url``. The site's own
        ``/robots.txt`` is always allowed (RFC 9309 §2.2.2), as with
        Scrapy's own parsers: a ``SitemapSpider`` reads its sitemaps from
        it whatever its rules say."""
        url = text(url, "url")
        user_agent = text(user_agent, "user_agent")
        if path_of(url) == "/robots.txt":
            return True
        return self._matchers.is_allowed(user_agent, url)

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The ``crawl-delay`` of ``user_agent``'s groups in seconds, or
        ``None`` (Scrapy 2.18 and later ask for it)."""
        return self._matchers.get(text(user_agent, "user_agent")).crawl_delay
