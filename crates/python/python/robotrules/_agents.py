"""How the drop-ins turn what callers pass into what the native API takes.

Only conversions live here; every verdict comes from ``robotrules._native``.
"""

import threading

from ._native import Robots


def text(value, name):
    """``value`` as ``str``: ``bytes`` are decoded as UTF-8 (invalid bytes
    replaced, as a header value or URL from the wire may hold them)."""
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"{name} is not valid Unicode (it has a lone surrogate), "
                    "so it has no UTF-8 bytes to match"
                ) from None
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    raise TypeError(f"{name} must be str or bytes, not {type(value).__name__}")


class Matchers:
    """The compiled matcher of each crawler name seen, built on first use.

    A name with a ``/`` is a ``User-Agent`` value (``MyBot/1.0``, or a
    whole header): it stands for the product token that
    ``Robots.agent_for`` finds in it, ``MyBot`` for ``Mozilla/5.0
    (compatible; MyBot/1.0; +https://example.com/bot)``. Any other name is
    used as given, as the reference does, less white space around it (a
    name read from a file keeps its line break), as the parsers these
    drop-ins replace strip it.
    """

    __slots__ = ("robots", "_cache", "_names", "_lock")

    def __init__(self, robots: Robots):
        self.robots = robots
        # Matchers by the name they are built for, and the name of each
        # User-Agent value seen: a crawler whose header changes (a version,
        # a rotated browser string) shares its token's matcher.
        self._cache = {}
        self._names = {}
        self._lock = threading.Lock()

    def agent(self, user_agent: str) -> str:
        user_agent = user_agent.strip() or user_agent
        if "/" not in user_agent:
            return user_agent
        name = self._names.get(user_agent)
        if name is None:
            token = self.robots.agent_for(user_agent)
            name = token if token else user_agent
            with self._lock:
                if len(self._names) > 4096:
                    self._names.clear()
                self._names[user_agent] = name
        return name

    def get(self, user_agent):
        name = self.agent(user_agent)
        matcher = self._cache.get(name)
        if matcher is None:
            matcher = self.robots.matcher(name)
            with self._lock:
                if len(self._cache) > 1024:
                    self._cache.clear()
                self._cache[name] = matcher
        return matcher

    def is_allowed(self, user_agent, url) -> bool:
        # The URL is matched as given, as the reference does: crawlers
        # pass it percent-encoded, as it is requested.
        return self.get(user_agent).is_allowed(url)
