"""robots.txt (RFC 9309) with the verdicts of Google's reference parser.

Parse once, check many times::

    import robotrules
    robots = robotrules.Robots.parse(b"User-agent: *\\nDisallow: /private\\n")
    robots.is_allowed("MyBot", "https://example.com/private/x")  # False

Drop-ins for other parsers, each a one-line change:

* ``robotrules.RobotFileParser`` for ``urllib.robotparser.RobotFileParser``
* ``robotrules.Protego`` for ``protego.Protego``
* ``robotrules.scrapy.RobotRulesParser`` for Scrapy's ``ROBOTSTXT_PARSER``

Everything is implemented in Rust (the ``robotrules._native`` extension);
this package adds the drop-in adapters only.
"""

from typing import Optional

from ._native import (
    DEFAULT_LIFETIME,
    FETCH_LIMIT,
    MAX_BODY,
    MAX_BODY_LEN,
    MAX_LINE_LEN,
    MAX_REDIRECTS,
    Agent,
    CacheVerdict,
    Catalogue,
    Check,
    Decision,
    Diagnostic,
    Explanation,
    Extension,
    FetchResult,
    Group,
    LineReport,
    Matcher,
    RequestRate,
    Robots,
    RobotsCache,
    Rule,
    RuleRef,
    Sitemap,
    Standing,
    UnknownDirective,
    VisitTime,
    __version__,
    agent_from_user_agent,
    escape_pattern,
    is_valid_agent,
    lint,
    path_of,
    percent_encode,
    product_token,
)
from . import policy
from ._protego import Protego
from ._robotparser import RobotFileParser

__all__ = [
    "DEFAULT_LIFETIME",
    "FETCH_LIMIT",
    "MAX_BODY",
    "MAX_BODY_LEN",
    "MAX_LINE_LEN",
    "MAX_REDIRECTS",
    "Agent",
    "CacheVerdict",
    "Catalogue",
    "Check",
    "Decision",
    "Diagnostic",
    "Explanation",
    "Extension",
    "FetchResult",
    "Group",
    "LineReport",
    "Matcher",
    "Protego",
    "RequestRate",
    "RobotFileParser",
    "Robots",
    "RobotsCache",
    "Rule",
    "RuleRef",
    "Sitemap",
    "Standing",
    "UnknownDirective",
    "VisitTime",
    "__version__",
    "agent_from_user_agent",
    "escape_pattern",
    "fetch",
    "is_valid_agent",
    "lint",
    "path_of",
    "percent_encode",
    "policy",
    "product_token",
]


def fetch(
    url: str, *, user_agent: Optional[str] = None, timeout: Optional[float] = None
) -> FetchResult:
    """Fetch and judge the robots.txt of the site of ``url``.

    See :func:`robotrules.policy.fetch`.
    """
    return policy.fetch(url, user_agent=user_agent, timeout=timeout)
