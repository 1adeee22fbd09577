"""``from robotrules.robotparser import RobotFileParser, RequestRate``: the
names of ``urllib.robotparser`` with Google's verdicts, for a one-line
change of an import."""

from ._robotparser import RequestRate, RobotFileParser

__all__ = ["RequestRate", "RobotFileParser"]
