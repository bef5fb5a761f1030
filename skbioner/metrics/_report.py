"""Entity-level scores: the report object, its text and JSON forms."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["MatchScore", "ClassScore", "EntityReport"]

MATCHES = ("exact", "left", "right")


def _prf(tp: int, n_gold: int, n_pred: int):
    """Recall, precision, F1 as the official scorer computes them (0 when undefined)."""
    recall = tp / n_gold if n_gold else 0.0
    precision = tp / n_pred if n_pred else 0.0
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


@dataclass(frozen=True)
class MatchScore:
    """True positives and P/R/F1 for one matching criterion.

    Parameters
    ----------
    tp : int
        Number of predicted entities that match a gold one.
    precision : float
        ``tp / n_pred`` (0 without predictions).
    recall : float
        ``tp / n_gold`` (0 without gold entities).
    f1 : float
        Harmonic mean of precision and recall (0 when both are 0).
    """

    tp: int
    precision: float
    recall: float
    f1: float

    def to_dict(self):
        """The scores as a plain dict.

        Returns
        -------
        dict
            ``{"tp", "precision", "recall", "f1"}``.
        """
        return {"tp": self.tp, "precision": self.precision, "recall": self.recall, "f1": self.f1}


def _match_property(match):
    def get(self):  # a def, not a lambda: numpydoc's validation reads its source line
        return self[match]
    return property(get, doc=f"The :class:`MatchScore` of ``{match}``.")


@dataclass(frozen=True)
class ClassScore:
    """Counts of one class (or overall) under exact, left and right matching.

    ``score["exact"]`` (or ``score.exact``, ``.left``, ``.right``) gives the
    :class:`MatchScore` of one matching criterion.

    Parameters
    ----------
    n_gold : int
        Number of gold entities.
    n_pred : int
        Number of predicted entities.
    tp : dict of str -> int, default={}
        True positives per matching criterion (``"exact"``, ``"left"``,
        ``"right"``); a missing criterion counts 0.
    """

    n_gold: int
    n_pred: int
    tp: dict = field(default_factory=dict)  # match -> int

    def __getitem__(self, match: str) -> MatchScore:
        if match not in MATCHES:
            raise KeyError(f"match must be one of {MATCHES}, got {match!r}")
        tp = int(self.tp.get(match, 0))
        p, r, f = _prf(tp, self.n_gold, self.n_pred)
        return MatchScore(tp, p, r, f)

    exact = _match_property("exact")
    left = _match_property("left")
    right = _match_property("right")

    def to_dict(self):
        """The counts and the scores of every matching criterion as a plain dict.

        Returns
        -------
        dict
            ``{"n_gold", "n_pred", "exact", "left", "right"}``, each criterion
            as in :meth:`MatchScore.to_dict`.
        """
        out = {"n_gold": int(self.n_gold), "n_pred": int(self.n_pred)}
        out.update({m: self[m].to_dict() for m in MATCHES})
        return out


@dataclass(frozen=True)
class EntityReport:
    """Entity-level evaluation, overall and per class.

    Parameters
    ----------
    overall : ClassScore
        Counts over all classes.
    per_class : dict of str -> ClassScore
        In official mode, gold counts are keyed by the gold class and answer
        counts and hits by the answer's class (as the official script does).
    mode : {"official", "spans", "characters"}
        How entities were matched: the official token-level counting, strict
        token spans, or character offsets (:func:`character_span_report`).
    tagging : dict, default={}
        ``{"tags", "correct_tags", "correct_iob"}`` token-level agreement
        (official mode: of the IOBES-rewritten tags); empty for character
        spans.
    documents : dict, default={}
        ``{"gold", "scored", "left_out"}``: the gold documents, those scored
        and those left out, when only the documents present in the
        predictions were scored; empty otherwise.
    """

    overall: ClassScore
    per_class: dict
    mode: str
    tagging: dict = field(default_factory=dict)
    documents: dict = field(default_factory=dict)

    def f1(self, match: str = "exact", cls: str | None = None) -> float:
        """F1 under one matching criterion, overall or of one class.

        Parameters
        ----------
        match : {"exact", "left", "right"}, default="exact"
            The matching criterion.
        cls : str or None, default=None
            A key of :attr:`per_class`; None for the overall score.

        Returns
        -------
        float
            The F1 score.
        """
        score = self.overall if cls is None else self.per_class[cls]
        return score[match].f1

    def to_dict(self) -> dict:
        """``{"overall": S, "per_class": {cls: S}}`` with ``S`` as in :meth:`ClassScore.to_dict`.

        Returns
        -------
        dict
            The overall and per-class counts and scores, classes sorted
            (JSON-serialisable).
        """
        out = {
            "overall": self.overall.to_dict(),
            "per_class": {c: s.to_dict() for c, s in sorted(self.per_class.items())},
        }
        if self.documents:
            out["documents"] = dict(self.documents)
        return out

    def to_json(self, **kwargs) -> str:
        """:meth:`to_dict` as a JSON string.

        Parameters
        ----------
        **kwargs
            Passed to :func:`json.dumps` (e.g. ``indent=2``).

        Returns
        -------
        str
            The JSON text.
        """
        return json.dumps(self.to_dict(), **kwargs)

    def to_text(self) -> str:
        """A report laid out like the official script's output.

        Per-class sections are printed (sorted by class) when the gold has
        more than one class, for the gold classes, as the script does.

        Returns
        -------
        str
            The report as lines of text, ending with a newline.
        """
        lines = []
        d = self.documents
        if d:
            lines += ["", f"Only the documents in the predictions were scored: {d['scored']:,} of "
                          f"the {d['gold']:,} gold documents ({d['left_out']:,} left out)."]
        t = self.tagging
        if t:
            n = t["tags"]
            lines += [
                "",
                "[Tagging Performance]",
                f"# of tags: {n},\t correct tags: {t['correct_tags']},\t "
                f"correct IOBs: {t['correct_iob']}",
                "precision with class info: {:6.4f},\t w/o class info: {:6.4f}".format(
                    t["correct_tags"] / n if n else 0.0, t["correct_iob"] / n if n else 0.0
                ),
            ]
        lines += ["", "[Object Identification Performance]"]
        lines += _section(self.overall)
        lines.append("")
        gold_classes = sorted(c for c, s in self.per_class.items() if s.n_gold > 0)
        if len(gold_classes) > 1:
            for c in gold_classes:
                lines += ["", f"[<{c}> Identification Performance]"]
                lines += _section(self.per_class[c])
                lines.append("")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()


def _section(s: ClassScore):
    out = [
        f"# of OBJECTs: {s.n_gold},\t ANSWERs: {s.n_pred}.",
        "",
        "# (recall / precision / f-score) of ...",
    ]
    names = {
        "exact": "     FULLY CORRECT answer",
        "left": "    correct LEFT boundary",
        "right": "   correct RIGHT boundary",
    }
    for m in MATCHES:
        ms = s[m]
        out.append(
            f"{names[m]} with class info: {ms.tp} "
            f"({ms.recall:6.4f} / {ms.precision:6.4f} / {ms.f1:6.4f}),"
        )
    return out
