"""Entity counts exactly as the official JNLPBA 2004 scorer (evalIOB2.pl) makes them.

The scorer's semantics, quirks included, are described in
``docs/evaluation.md``.  In short, per sentence ("block") both label columns
are rewritten from IOB2 to IOBES by looking at the first character of each
tag and of the next tag only; then a left-to-right pass counts reference
objects, answers and exact / left-boundary / right-boundary hits, carrying a
class-aware ``match`` flag and a class-blind ``bmatch`` flag; every answer and
hit is weighted 0 until the first reference entity of the whole file.

This implementation is vectorised with numpy: the two flags follow the
recurrence ``flag[i] = (flag[i-1] or set[i]) and keep[i]`` (reset at each
block), which is solved with running maxima of "last set" and "last break"
positions instead of a per-token loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..schemes import check_label_sequences

__all__ = ["official_token_tallies", "OfficialTallies"]

@dataclass
class OfficialTallies:
    """Per-token contributions of the official scorer.

    Made by :func:`official_token_tallies`.

    Parameters
    ----------
    ref : ndarray of bool, shape (n_tokens,)
        A reference object starts here (reference ``B`` or ``S`` after the
        IOBES rewrite).
    ref_class : ndarray of int, shape (n_tokens,)
        Index into ``classes`` of the reference class at each token.
    ans_class : ndarray of int, shape (n_tokens,)
        Index into ``classes`` of the answer class (answers and hits are
        tallied under the answer's class, as the script does).
    hits : dict of str -> ndarray of bool, shape (n_tokens,)
        ``ans``, ``exact``, ``left``, ``right`` (class-aware) and
        ``bexact``, ``bleft``, ``bright`` (class-blind) contributions, already
        multiplied by the script's weight (0 before the first reference
        object of the file).
    correct_tags, correct_iob : ndarray of bool, shape (n_tokens,)
        Token-level agreement of the rewritten tags / of their first
        characters (the script's "[Tagging Performance]").
    classes : list of str
        Class names (text after ``X-``; ``""`` for tags without a dash).
    sentence_offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` covers tokens ``sentence_offsets[i]:sentence_offsets[i + 1]``.
    """

    ref: np.ndarray
    ref_class: np.ndarray
    ans_class: np.ndarray
    hits: dict
    correct_tags: np.ndarray
    correct_iob: np.ndarray
    classes: list
    sentence_offsets: np.ndarray


def _check_y(y_true, y_pred):
    """Both as lists of label lists, ``y_pred`` as long as ``y_true`` (labels not checked:
    the scorers count what they are given, as the official script does)."""
    y_true = check_label_sequences(y_true, scheme=False, name="y_true")
    return y_true, check_label_sequences(y_pred, map(len, y_true), scheme=False, name="y_pred",
                                         unit="labels in y_true")


def official_token_tallies(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]]):
    """Compute the official scorer's per-token tallies for gold and answer.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Reference and answer label sequences, one list per sentence (block),
        in file order.  Labels are read as the script reads them: only the
        first character and the text after ``X-`` matter; ill-formed
        sequences are welcome.

    Returns
    -------
    OfficialTallies
    """
    y_true, y_pred = _check_y(y_true, y_pred)
    lengths = np.fromiter(map(len, y_true), dtype=np.int64, count=len(y_true))
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    n = int(offsets[-1])

    flat_true = [lab for s in y_true for lab in s]
    flat_pred = [lab for s in y_pred for lab in s]
    vocab = sorted(set(flat_true) | set(flat_pred))
    code = {lab: i for i, lab in enumerate(vocab)}
    t_code = np.fromiter((code[x] for x in flat_true), dtype=np.int64, count=n)
    p_code = np.fromiter((code[x] for x in flat_pred), dtype=np.int64, count=n)

    # per distinct label: its first character, the rest, and its class (text after "X-")
    rest = [lab[1:] for lab in vocab]
    cls = [lab[2:] if lab[1:2] == "-" else "" for lab in vocab]
    rest_ids = {r: i for i, r in enumerate(sorted(set(rest)))}
    classes = sorted(set(cls))
    cls_ids = {c: i for i, c in enumerate(classes)}
    lab_first = np.array([ord(lab[0]) if lab else 0 for lab in vocab], dtype=np.int64)
    lab_rest = np.array([rest_ids[r] for r in rest], dtype=np.int64)
    lab_cls = np.array([cls_ids[c] for c in cls], dtype=np.int64)

    # last token of each block: the rewrite never looks across a block end
    is_last = np.zeros(n, dtype=bool)
    is_last[offsets[1:][lengths > 0] - 1] = True
    block_start = np.repeat(offsets[:-1], lengths)

    ch_B, ch_I, ch_O, ch_E, ch_S = (ord(c) for c in "BIOES")

    def rewrite(c):
        first_c = lab_first[c]
        next_is_i = np.zeros(n, dtype=bool)
        next_is_i[:-1] = first_c[1:] == ch_I
        next_is_i &= ~is_last
        out = first_c.copy()
        out[(first_c == ch_I) & ~next_is_i] = ch_E
        out[(first_c == ch_B) & ~next_is_i] = ch_S
        return out

    a, r = rewrite(p_code), rewrite(t_code)
    a_rest, r_rest = lab_rest[p_code], lab_rest[t_code]
    a_cls, r_cls = lab_cls[p_code], lab_cls[t_code]

    same_iob = a == r
    same_tag = same_iob & (a_rest == r_rest)
    same_cls = a_cls == r_cls

    ref = (r == ch_B) | (r == ch_S)
    first_ref = int(np.argmax(ref)) if ref.any() else n
    weight = np.arange(n) >= first_ref

    aS, aB, aE = a == ch_S, a == ch_B, a == ch_E
    rS, rB, rE = r == ch_S, r == ch_B, r == ch_E
    not_o = (a != ch_O) & (r != ch_O)

    def carried_flag(set_, keep):
        """flag[i] = (flag[i-1] | set_[i]) & keep[i], flag reset per block."""
        idx = np.arange(n)
        last_set = np.maximum.accumulate(np.where(set_, idx, -1)) if n else idx
        last_break = np.maximum.accumulate(np.where(keep, -1, idx)) if n else idx
        last_break = np.maximum(last_break, block_start - 1)
        return keep & (last_set > last_break)

    bb = aB & rB
    match = carried_flag(bb & same_cls, same_tag & not_o)
    bmatch = carried_flag(bb, same_iob & not_o)

    left_pos = (aS & rS) | (aS & rB) | (aB & rS) | bb
    right_pos = (aS & rS) | (aS & rE) | (aE & rS) | (aE & rE)
    hits = {
        "ans": aS | aB,
        "exact": ((aS & rS) | (aE & rE & match)) & same_cls,
        "left": left_pos & same_cls,
        "right": right_pos & same_cls,
        "bexact": (aS & rS) | (aE & rE & bmatch),
        "bleft": left_pos,
        "bright": right_pos,
    }
    hits = {k: v & weight for k, v in hits.items()}
    return OfficialTallies(
        ref=ref,
        ref_class=r_cls,
        ans_class=a_cls,
        hits=hits,
        correct_tags=same_tag,
        correct_iob=same_iob,
        classes=classes,
        sentence_offsets=offsets,
    )
