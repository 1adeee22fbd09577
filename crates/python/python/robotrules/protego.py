"""``from robotrules.protego import Protego, RequestRate, VisitTime``: the
names of ``protego`` with Google's verdicts, for a one-line change of an
import (``robotrules.RequestRate`` and ``robotrules.VisitTime`` are the
native types; these are Protego's named tuples)."""

from ._protego import Protego, RequestRate, VisitTime

__all__ = ["Protego", "RequestRate", "VisitTime"]
