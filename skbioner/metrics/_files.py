"""Reading GOLD / PRED label files the way the official scorer reads them."""

from __future__ import annotations

import os

from ._entity import entity_report

__all__ = ["read_label_blocks", "evaluate_files"]


class ScoringInputError(ValueError):
    """A GOLD or PRED file the scorer cannot read; the message names file and line."""


def read_label_blocks(path):
    """Read the label column of a token<TAB>label file, block by block.

    Exactly the official script's reading: lines are split on ``"\\n"``
    only; a line that is empty or starts with ``###MEDLIN`` ends a block;
    every other line is a token whose label is its last tab-separated field
    (trailing empty fields dropped, as Perl's ``split`` does).  A name
    ending in ``.gz`` is read through gzip.

    Returns
    -------
    blocks : list of list of str
    first_lines : list of int
        1-based line number of each block's first token (for messages).
    """
    from ..io import CorpusFormatError
    from ..io._columns import _read_bytes

    path = os.fspath(path)
    try:
        data = _read_bytes(path, os.fsdecode(path))
    except CorpusFormatError as exc:
        raise ScoringInputError(str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ScoringInputError(
            f"{path}:{line}: bytes that are not UTF-8 at byte offset {exc.start}"
        ) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    blocks, first_lines, cur = [], [], []
    for no, line in enumerate(lines, 1):
        if line == "" or line.startswith("###MEDLIN"):
            if cur:
                blocks.append(cur)
                cur = []
            continue
        if not cur:
            first_lines.append(no)
        fields = line.split("\t")
        while fields and fields[-1] == "":
            fields.pop()
        cur.append(fields[-1] if fields else "")
    if cur:
        blocks.append(cur)
    return blocks, first_lines


def evaluate_files(gold_path, pred_path, *, mode="official", scheme="IOB2"):
    """Score a PRED file against a GOLD file (token<TAB>label column files).

    The files are read as the official script reads them
    (:func:`read_label_blocks`).  Unlike the script, which ignores trailing
    gold sentences when the answer file is shorter, any difference in the
    number of sentences is an error.

    Returns
    -------
    EntityReport
    """
    gold, gold_lines = read_label_blocks(gold_path)
    pred, pred_lines = read_label_blocks(pred_path)
    for i, (g, p) in enumerate(zip(gold, pred)):
        if len(g) != len(p):
            raise ScoringInputError(
                f"{pred_path}:{pred_lines[i]}: sentence {i + 1} has {len(p)} tokens, but in "
                f"{gold_path} (line {gold_lines[i]}) it has {len(g)}"
            )
    if len(gold) != len(pred):
        raise ScoringInputError(
            f"{pred_path}: {len(pred)} sentences, but {gold_path} has {len(gold)}"
        )
    return entity_report(gold, pred, mode=mode, scheme=scheme)
