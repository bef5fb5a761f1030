"""Reading GOLD / PRED label files the way the official scorer reads them."""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field, replace

from ..schemes import check_scheme, is_valid_label
from ._entity import entity_report
from ._spans import character_span_report

__all__ = ["read_label_blocks", "evaluate_files", "evaluate_span_files"]

#: Lines named per kind of warning before the rest are only counted.
_MAX_NAMED = 3


class ScoringInputError(ValueError):
    """A GOLD or PRED file the scorer cannot read; the message names file and line."""


class ScoringInputWarning(UserWarning):
    """Something in GOLD or PRED the official counts take as it is but a user should know.

    Tokens of PRED that differ from GOLD's, PRED lines the official script
    misreads (no label column, labels outside IOB2, a carriage return at the
    end) and a PRED in another scheme than IOB2.  The message names the file
    and line.
    """


@dataclass
class _Blocks:
    """A column file read as the official script reads it, with what it overlooks."""

    path: str
    labels: list = field(default_factory=list)  # per block, the label of each token line
    tokens: list = field(default_factory=list)  # per block, the first field of each line
    first_lines: list = field(default_factory=list)  # 1-based line of each block's first token
    one_field: list = field(default_factory=list)  # lines without a label column
    carriage_returns: list = field(default_factory=list)  # lines ending in \r
    docs: list = field(default_factory=list)  # per block, the id of its ###MEDLINE document

    def without(self, keep):
        """The blocks whose index is in ``keep`` (sorted), the rest dropped."""
        out = _Blocks(self.path, one_field=self.one_field,
                      carriage_returns=self.carriage_returns)
        for name in ("labels", "tokens", "first_lines", "docs"):
            setattr(out, name, [getattr(self, name)[i] for i in keep])
        return out

    def line(self, i, j):
        """The line of token ``j`` of block ``i`` (a block's lines are consecutive)."""
        return self.first_lines[i] + j


def read_label_blocks(path, sep="\t"):
    """Read the label column of a token<TAB>label file, block by block.

    Exactly the official script's reading: lines are split on ``"\\n"``
    only; a line that is empty or starts with ``###MEDLIN`` ends a block;
    every other line is a token whose label is its last tab-separated field
    (trailing empty fields dropped, as Perl's ``split`` does).  A name
    ending in ``.gz`` is read through gzip.

    Parameters
    ----------
    path : str or path-like
        The column file (UTF-8).
    sep : str, default="\\t"
        The field separator: a tab as the official script; ``" "`` for a
        CoNLL file, ``"auto"`` to detect it (see
        :func:`skbioner.io.read_columns`).

    Returns
    -------
    blocks : list of list of str
        The labels of each block (sentence), in file order.
    first_lines : list of int
        1-based line number of each block's first token (for messages).
    """
    blocks = _read_blocks(path, sep)
    return blocks.labels, blocks.first_lines


def _read_blocks(path, sep="\t") -> _Blocks:
    """:func:`read_label_blocks`, keeping the tokens and the lines the script misreads."""
    from ..io import CorpusFormatError
    from ..io._decode import check_controls, read_bytes

    path = os.fspath(path)
    try:
        data = read_bytes(path, os.fsdecode(path))
        text = data.decode("utf-8")
        # a NUL in a label would be scored as a class of its own ('prot\x00ein')
        check_controls(text, os.fsdecode(path), "\t" if sep == "auto" else sep)
    except CorpusFormatError as exc:
        raise ScoringInputError(str(exc)) from None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ScoringInputError(
            f"{path}:{line}: bytes that are not UTF-8 at byte offset {exc.start}"
        ) from None
    if sep == "auto":
        from ..io._columns import detect_separator

        sep = detect_separator(text)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = _Blocks(os.fsdecode(path))
    cur, cur_tokens, doc = [], [], None
    for no, line in enumerate([*lines, ""], 1):  # the last line ends the last block
        if line == "" or line.startswith("###MEDLIN"):
            if cur:
                out.labels.append(cur)
                out.tokens.append(cur_tokens)
                out.docs.append(doc)
                cur, cur_tokens = [], []
            if line.startswith("###MEDLINE:"):
                doc = line[len("###MEDLINE:"):].strip()
            continue
        if not cur:
            out.first_lines.append(no)
        if line.endswith("\r"):
            out.carriage_returns.append(no)
        fields = line.split(sep)
        while fields and fields[-1] == "":
            fields.pop()
        if len(fields) < 2:
            out.one_field.append(no)
        cur.append(fields[-1] if fields else "")
        cur_tokens.append(fields[0] if fields else "")
    return out


def evaluate_files(gold_path, pred_path, *, mode="official", scheme="IOB2", sep="\t",
                   exclude_documents=None):
    """Score a PRED file against a GOLD file (token<TAB>label column files).

    The files are read as the official script reads them
    (:func:`read_label_blocks`).  Unlike the script, which ignores trailing
    gold sentences when the answer file is shorter, any difference in the
    number of sentences is an error.

    The counts are the official script's, whatever the files hold; what it
    overlooks is reported with a ``ScoringInputWarning`` naming the file and
    line: PRED tokens that differ from GOLD's (the script never compares
    them), lines without a label column (the script takes the token for the
    label), labels that are not IOB2 or lines ending in a carriage return
    (the script reads them by their first character, or keeps the carriage return),
    and a PRED in another scheme (IOB1, IOBES, BIES).

    Parameters
    ----------
    gold_path, pred_path : str or path-like
        The GOLD and PRED token<TAB>label files (same sentences and tokens).
    mode : {"official", "spans"}, default="official"
        See :func:`entity_report`.
    scheme : str, default="IOB2"
        Scheme of both files' labels (``"spans"`` mode only).
    sep : str, default="\\t"
        Field separator of both files (see :func:`read_label_blocks`);
        ``"auto"`` detects it in each.
    exclude_documents : iterable of str, optional
        Score only the sentences of GOLD's other documents (by its
        ``###MEDLINE:<id>`` lines; PRED's sentences are paired with GOLD's
        in order): the counts of the official script run on both files
        without those documents (:func:`skbioner.datasets.drop_documents`).
        For JNLPBA, :func:`skbioner.datasets.jnlpba_overlap_ids` gives
        the 10 test abstracts that are also training abstracts.

    Returns
    -------
    EntityReport
        The entity-level evaluation of PRED against GOLD.

    Raises
    ------
    ScoringInputError
        For files that cannot be read or paired (naming file and line), and
        in ``mode="spans"`` for a label that is not valid under ``scheme``.
    """
    gold = _read_blocks(gold_path, sep)
    pred = _read_blocks(pred_path, sep)
    for i, (g, p) in enumerate(zip(gold.labels, pred.labels)):
        if len(g) != len(p):
            raise ScoringInputError(
                f"{pred_path}:{pred.first_lines[i]}: sentence {i + 1} has {len(p)} tokens, but "
                f"in {gold_path} (line {gold.first_lines[i]}) it has {len(g)}"
            )
    if len(gold.labels) != len(pred.labels):
        raise ScoringInputError(
            f"{pred_path}: {len(pred.labels)} sentences, but {gold_path} has {len(gold.labels)}"
        )
    if mode == "spans":
        scheme = check_scheme(scheme)
        for blocks in (gold, pred):
            bad = _invalid(blocks, scheme)
            if bad:
                raise ScoringInputError(f"{blocks.path}:{bad[0][0]}: label {bad[0][1]!r} is not "
                                        f"a valid {scheme} label")
    for message in _overlooked(gold, pred):
        warnings.warn(message, ScoringInputWarning, stacklevel=2)
    if exclude_documents is not None:
        exclude = set(exclude_documents)
        if exclude and not any(gold.docs):
            raise ScoringInputError(f"{gold_path}: no ###MEDLINE:<id> document line, so no "
                                    "document to exclude")
        keep = [i for i, d in enumerate(gold.docs) if d not in exclude]
        gold, pred = gold.without(keep), pred.without(keep)
    return entity_report(gold.labels, pred.labels, mode=mode, scheme=scheme)


def _invalid(blocks, scheme):
    """``(line, label)`` of every label of ``blocks`` that ``scheme`` does not write."""
    bad = {lab for labels in blocks.labels for lab in labels if not is_valid_label(lab, scheme)}
    return [(blocks.line(i, j), lab) for i, labels in enumerate(blocks.labels)
            for j, lab in enumerate(labels) if lab in bad] if bad else []


def _named(path, lines, what):
    """One message for the lines of one kind: the first few named, the rest counted."""
    shown = ", ".join(str(n) for n in lines[:_MAX_NAMED])
    more = f" (and {len(lines) - _MAX_NAMED} more lines)" if len(lines) > _MAX_NAMED else ""
    return f"{path}:{shown}: {what}{more}"


def _overlooked(gold, pred):
    """Warnings for what the official counts take as it is (see :func:`evaluate_files`)."""
    out = []
    mismatches = [(i, j) for i, (g, p) in enumerate(zip(gold.tokens, pred.tokens))
                  for j in range(len(g)) if g[j] != p[j]] if gold.tokens != pred.tokens else []
    if mismatches:
        i, j = mismatches[0]
        out.append(_named(
            pred.path, [pred.line(i, j) for i, j in mismatches],
            f"{len(mismatches)} token(s) differ from GOLD's, e.g. {pred.tokens[i][j]!r} where "
            f"{gold.path}:{gold.line(i, j)} has {gold.tokens[i][j]!r} (is PRED the output for "
            "this GOLD?)"))
    if pred.one_field:
        out.append(_named(pred.path, pred.one_field, "no label column: the official script "
                          "reads the token itself as the label"))
    for blocks in (gold, pred):
        if blocks.carriage_returns:
            out.append(_named(blocks.path, blocks.carriage_returns,
                              "line ends in a carriage return (\\r): the official script keeps "
                              "it in the label"))
    skip = set(pred.one_field) | set(pred.carriage_returns)  # already reported
    bad = [(line, label) for line, label in _invalid(pred, "IOB2") if line not in skip]
    starts = {"B": 0, "I": 0, "E": 0, "S": 0}
    for labels in pred.labels:
        before = "O"
        for label in labels:
            prefix = label[:1]
            if prefix in ("E", "S") and label[1:2] == "-":
                starts[prefix] += 1
            elif prefix == "B" or (prefix == "I" and before[2:] != label[2:]):
                starts[prefix] += 1
            before = label
    if bad:
        out.append(_named(pred.path, [line for line, _ in bad],
                          f"label {bad[0][1]!r} is not an IOB2 label: the official script reads "
                          "it by its first character"))
    if starts["E"] or starts["S"]:
        out.append(f"{pred.path}: labels E-/S- ({starts['E']} and {starts['S']}): PRED looks "
                   "like IOBES or BIES, not IOB2; convert it first (skbioner convert "
                   "--from-scheme IOBES --to-scheme IOB2)")
    elif starts["I"] > starts["B"]:
        out.append(f"{pred.path}: {starts['I']} entities start with I- and {starts['B']} with "
                   "B-: PRED looks like IOB1, not IOB2; convert it first (skbioner convert "
                   "--from-scheme IOB1 --to-scheme IOB2)")
    return out


def evaluate_span_files(gold_path, pred_path, *, gold_format="auto", pred_format="auto",
                        sep="auto", only_predicted_documents=False):
    """Score the character-offset entities of PRED against GOLD, any format.

    For raw-text output (``skbioner tag``: brat or JSONL) against standoff
    gold (brat, PubTator, BioC, JSONL with texts): exact, left- and
    right-boundary matching of ``(type, start, end)`` per document
    (:func:`character_span_report`).  A column file is read as the text
    :func:`skbioner.io.corpus_to_documents` gives it (tokens joined by
    spaces), which only a PRED made on that text matches.

    Parameters
    ----------
    gold_path, pred_path : str or path-like
        Files, or brat directories.
    gold_format, pred_format : str, default="auto"
        One of :data:`skbioner.io.FORMATS`, or ``"auto"``
        (:func:`skbioner.io.detect_format`).
    sep : str, default="auto"
        Field separator of a column file.
    only_predicted_documents : bool, default=False
        Score only the GOLD documents that PRED has (PRED tagged a part of
        the corpus); the report's ``documents`` says how many were left out.

    Returns
    -------
    EntityReport
        ``mode="characters"``.

    Warns
    -----
    ScoringInputWarning
        Naming the document: PRED documents that GOLD does not have (not
        counted), GOLD documents without a PRED document (their entities
        count as missed), PRED texts that differ from GOLD's (offsets into
        another text), PRED entities beyond the end of GOLD's text, PRED
        entity texts (JSONL without document texts, as ``skbioner tag``
        writes) that differ from GOLD's text at their offsets.

    Raises
    ------
    ScoringInputError
        For a file that cannot be read, naming the file and the line or the
        document.
    """
    from ..io import CorpusFormatError
    from ..io._corpus import read_spans

    try:
        gold = read_spans(gold_path, gold_format, sep=sep)
        pred = read_spans(pred_path, pred_format, sep=sep)
        covered = _entity_texts(pred_path, pred_format, pred)
    except CorpusFormatError as exc:
        raise ScoringInputError(str(exc)) from None
    documents = {}
    if only_predicted_documents:
        scored = {d: v for d, v in gold.items() if d in pred}
        documents = {"gold": len(gold), "scored": len(scored),
                     "left_out": len(gold) - len(scored)}
        gold = scored
    for message in _span_problems(gold, pred, os.fspath(gold_path), os.fspath(pred_path),
                                  covered):
        warnings.warn(message, ScoringInputWarning, stacklevel=2)
    report = character_span_report({d: spans for d, (_, spans) in gold.items()},
                                   {d: spans for d, (_, spans) in pred.items() if d in gold})
    return replace(report, documents=documents) if documents else report


def _ids(ids):
    ids = list(ids)
    shown = ", ".join(repr(i) for i in ids[:_MAX_NAMED])
    return shown + (f" (and {len(ids) - _MAX_NAMED} more)" if len(ids) > _MAX_NAMED else "")


def _entity_texts(path, format, spans):
    """``{doc_id: [(start, end, text), ...]}`` of the entities of a JSONL PRED without texts.

    ``skbioner tag`` writes each entity's text but not the document's: the
    text is all that says which text the offsets were made on.  (Other
    formats check an entity's text against their own text when read.)
    """
    from ..io._corpus import _check_format
    from ..io._jsonl import iter_jsonl_records

    if _check_format(format, path) != "jsonl" or all(t is not None for t, _ in spans.values()):
        return {}
    return {doc_id: [(s, e, covered) for _, s, e, covered, _ in ents if covered is not None]
            for _, doc_id, text, ents in iter_jsonl_records(path, require_text=False)
            if text is None}


def _normalized(text):
    return " ".join(text.split())


def _span_problems(gold, pred, gold_path, pred_path, covered=None):
    """Warnings for what :func:`evaluate_span_files` scores as it is."""
    out = []
    extra = [d for d in pred if d not in gold]
    if extra:
        out.append(f"{pred_path}: {len(extra)} document(s) not in GOLD, not scored: "
                   f"{_ids(extra)}")
    missing = [d for d in gold if d not in pred]
    if missing:
        out.append(f"{pred_path}: no output for {len(missing)} GOLD document(s), whose entities "
                   f"count as missed: {_ids(missing)} (did tagging skip them?)")
    other_text, beyond = [], []
    for doc, (text, spans) in pred.items():
        if doc not in gold:
            continue
        gold_text = gold[doc][0]
        if text is not None and text.rstrip() != gold_text.rstrip():
            other_text.append(doc)
        elif any(e > len(gold_text) for _, _, e in spans):
            beyond.append(doc)
    if other_text:
        out.append(f"{pred_path}: the text of {len(other_text)} document(s) differs from "
                   f"{gold_path}'s, so offsets point elsewhere: {_ids(other_text)}")
    if beyond:
        out.append(f"{pred_path}: entities beyond the end of the GOLD text in "
                   f"{len(beyond)} document(s): {_ids(beyond)} (output of another text?)")
    contradicted = [(doc, s, e, text) for doc, ents in (covered or {}).items() if doc in gold
                    for s, e, text in ents
                    if _normalized(text) != _normalized(gold[doc][0][s:e])]
    if contradicted:
        doc, s, e, text = contradicted[0]
        out.append(f"{pred_path}: {len(contradicted)} entity text(s) differ from the GOLD text "
                   f"at their offsets, e.g. document {doc!r} {s}:{e} {text!r:.60} where "
                   f"{gold_path} has {gold[doc][0][s:e]!r:.60} (offsets of another text?)")
    return out
