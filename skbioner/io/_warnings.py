"""The warning for what a corpus holds but a reader or writer cannot keep as it is."""

from __future__ import annotations

__all__ = ["CorpusWarning"]


class CorpusWarning(UserWarning):
    """Something in a corpus that is read or written, but not as it was.

    Raised through :mod:`warnings` (never an error: the corpus is still
    usable), naming the document: entities that token labels cannot hold
    (nested, overlapping or discontinuous ones, one that covers no token),
    line breaks a PubTator abstract line cannot hold, a fragmented entity
    written as its whole span.  ``skbioner train``, ``convert`` and
    ``evaluate`` print them on stderr.
    """
