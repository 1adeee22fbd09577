"""The RFC 9309 access method: fetch a robots.txt, or judge a response
that your own HTTP client (httpx, aiohttp, requests) got.

``evaluate(url, status, headers, body)`` is sans-IO: status, headers and
body in, a :class:`robotrules.FetchResult` out, which says what the result
means for crawlers (``access``: ``"obey"``, ``"allow-all"`` or
``"disallow-all"``), holds the rules, and says how long to keep it
(``lifetime``, seconds). Follow at most ``MAX_REDIRECTS`` redirects
yourself and pass the final response, with ``hops``, the ``(url,
status)`` of every request made (``[(str(r.url), r.status_code) for r in
(*response.history, response)]`` with httpx or requests), so that a
response reached past the limit of redirects, or back at a URL taken,
counts as no robots.txt, as ``fetch`` counts it; pass ``status=None``
when no response came (timeout, DNS or connection failure).

``fetch(url)`` does the fetching too (HTTP(S) and FTP), blocking without
holding the GIL.
"""

from ._native import (
    DEFAULT_LIFETIME,
    MAX_BODY,
    MAX_REDIRECTS,
    FetchResult,
    evaluate,
    fetch,
    is_exempt,
    robots_url,
)

__all__ = [
    "DEFAULT_LIFETIME",
    "MAX_BODY",
    "MAX_REDIRECTS",
    "FetchResult",
    "evaluate",
    "fetch",
    "is_exempt",
    "robots_url",
]
