import itertools

import numpy as np
import pytest

from skbioner.schemes import (
    LOSSLESS_SCHEMES,
    SCHEMES,
    check_label_sequences,
    check_scheme,
    convert,
    is_valid_label,
    labels_to_spans,
    projection_table,
    repair,
    scheme_labels,
    spans_to_labels,
    transition_mask,
)
from tests.conftest import data_path

TYPES = ["DNA", "RNA", "protein"]


def random_spans(rng, n, types=TYPES, p=0.35):
    """Random non-overlapping spans, adjacent same-type entities included."""
    spans, i = [], 0
    while i < n:
        if rng.random() < p:
            length = int(rng.integers(1, 4))
            end = min(n, i + length)
            spans.append((str(rng.choice(types)), i, end))
            i = end
        else:
            i += 1
    return spans


def random_cases(rng, count=400):
    for _ in range(count):
        n = int(rng.integers(1, 12))
        yield n, random_spans(rng, n)


def merge_adjacent_same_type(spans):
    out = []
    for t, s, e in spans:
        if out and out[-1][0] == t and out[-1][2] == s:
            out[-1] = (t, out[-1][1], e)
        else:
            out.append((t, s, e))
    return out


# --- the tables, by hand -------------------------------------------------

HAND = {
    # spans: DNA 0-2, DNA 2-3 (adjacent, same type), RNA 4-5, O at 3, 5, 6
    "IO": ["I-DNA", "I-DNA", "I-DNA", "O", "I-RNA", "O", "O"],
    "IOB1": ["I-DNA", "I-DNA", "B-DNA", "O", "I-RNA", "O", "O"],
    "IOB2": ["B-DNA", "I-DNA", "B-DNA", "O", "B-RNA", "O", "O"],
    "IOE1": ["I-DNA", "E-DNA", "I-DNA", "O", "I-RNA", "O", "O"],
    "IOE2": ["I-DNA", "E-DNA", "E-DNA", "O", "E-RNA", "O", "O"],
    "IOBES": ["B-DNA", "E-DNA", "S-DNA", "O", "S-RNA", "O", "O"],
    "BI": ["B-DNA", "I-DNA", "B-DNA", "B-O", "B-RNA", "B-O", "I-O"],
    "IE": ["I-DNA", "E-DNA", "E-DNA", "E-O", "E-RNA", "I-O", "E-O"],
    "BIES": ["B-DNA", "E-DNA", "S-DNA", "S-O", "S-RNA", "B-O", "E-O"],
}
HAND_SPANS = [("DNA", 0, 2), ("DNA", 2, 3), ("RNA", 4, 5)]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_hand_written_encoding(scheme):
    assert spans_to_labels(HAND_SPANS, 7, scheme) == HAND[scheme]
    expected = merge_adjacent_same_type(HAND_SPANS) if scheme == "IO" else HAND_SPANS
    assert labels_to_spans(HAND[scheme], scheme) == expected
    check_label_sequences([HAND[scheme]], scheme=scheme)


def test_check_scheme_and_alias():
    assert check_scheme("iobes") == "IOBES"
    assert check_scheme("BIO") == "IOB2"
    with pytest.raises(ValueError, match="unknown scheme 'BILOU'"):
        check_scheme("BILOU")


@pytest.mark.parametrize(
    "label,scheme,ok",
    [
        ("O", "IOB2", True),
        ("B-DNA", "IOB2", True),
        ("E-DNA", "IOB2", False),
        ("B-DNA", "IO", False),
        ("O", "BIES", False),
        ("S-O", "BIES", True),
        ("B-O", "IOB2", False),  # a type called O only exists in O-class schemes
        ("B-", "IOB2", False),
        ("BDNA", "IOB2", False),
        ("B-cell line", "IOB2", False),
        ("", "IOB2", False),
    ],
)
def test_is_valid_label(label, scheme, ok):
    assert is_valid_label(label, scheme) is ok


def test_check_label_sequences_names_sentence_and_token():
    with pytest.raises(ValueError, match=r"y\[1\]: label 'E-DNA' at token 1 is not a valid IOB2"):
        check_label_sequences([["O"], ["B-DNA", "E-DNA"]])


def test_scheme_labels():
    assert scheme_labels("IOB2", ["RNA", "DNA"]) == ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"]
    assert scheme_labels("BI", ["DNA"]) == ["B-O", "I-O", "B-DNA", "I-DNA"]


# --- properties on random data ------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_spans_round_trip(scheme, rng):
    for n, spans in random_cases(rng):
        labels = spans_to_labels(spans, n, scheme)
        assert len(labels) == n
        check_label_sequences([labels], scheme=scheme)
        expected = merge_adjacent_same_type(spans) if scheme == "IO" else spans
        assert labels_to_spans(labels, scheme) == expected


@pytest.mark.parametrize("a,b", list(itertools.product(SCHEMES, SCHEMES)))
def test_conversion_between_every_pair(a, b, rng):
    for n, spans in random_cases(rng, 100):
        y_a = spans_to_labels(spans, n, a)
        y_b = convert(y_a, a, b)
        lossy = "IO" in (a, b)
        expected = merge_adjacent_same_type(spans) if lossy else spans
        assert labels_to_spans(y_b, b) == expected


def test_io_loses_exactly_adjacent_same_type_boundaries():
    y = ["B-DNA", "I-DNA", "B-DNA", "B-RNA"]
    io = convert(y, "IOB2", "IO")
    assert io == ["I-DNA", "I-DNA", "I-DNA", "I-RNA"]
    # different types stay apart; the two DNA entities merge
    assert convert(io, "IO", "IOB2") == ["B-DNA", "I-DNA", "I-DNA", "B-RNA"]


@pytest.mark.parametrize(
    "labels,spans",
    [
        (["O", "I-DNA", "I-DNA"], [("DNA", 1, 3)]),
        (["B-DNA", "I-RNA"], [("DNA", 0, 1), ("RNA", 1, 2)]),
        (["I-DNA", "B-DNA"], [("DNA", 0, 1), ("DNA", 1, 2)]),
        (["B-DNA", "E-DNA", "I-DNA"], [("DNA", 0, 2), ("DNA", 2, 3)]),
        (["S-DNA", "I-DNA", "E-DNA"], [("DNA", 0, 1), ("DNA", 1, 3)]),
        (["B-O", "B-DNA", "O"], [("DNA", 1, 2)]),
        (["XYZ", "B-DNA"], [("DNA", 1, 2)]),
    ],
)
def test_repair_policy(labels, spans):
    assert labels_to_spans(labels) == spans


def test_repair_is_idempotent_and_fixes(rng):
    alphabet = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA"]
    for _ in range(300):
        y = list(rng.choice(alphabet, size=int(rng.integers(1, 9))))
        r = repair(y)
        assert repair(r) == r
        assert labels_to_spans(r) == labels_to_spans(y)


def test_spans_to_labels_rejects_bad_spans():
    with pytest.raises(ValueError, match="overlaps"):
        spans_to_labels([("DNA", 0, 2), ("RNA", 1, 3)], 4, "IOB2")
    with pytest.raises(ValueError, match="empty or outside"):
        spans_to_labels([("DNA", 2, 2)], 4, "IOB2")
    with pytest.raises(ValueError, match="empty or outside"):
        spans_to_labels([("DNA", 3, 5)], 4, "IOB2")
    with pytest.raises(ValueError, match="invalid entity type"):
        spans_to_labels([("O", 0, 1)], 4, "BIES")


# --- projections ------------------------------------------------------------

PROJECTABLE = [
    ("BIES", "IOBES"), ("BIES", "BI"), ("BIES", "IE"), ("BIES", "IOB2"), ("BIES", "IOE2"),
    ("BIES", "IO"), ("IOBES", "IOB2"), ("IOBES", "IOE2"), ("IOBES", "IO"), ("BI", "IOB2"),
    ("BI", "IO"), ("IE", "IOE2"), ("IE", "IO"), ("IOB2", "IO"), ("IOE2", "IO"),
]


@pytest.mark.parametrize("src,dst", PROJECTABLE + [(s, s) for s in SCHEMES])
def test_projection_commutes_with_conversion(src, dst, rng):
    src_labels, dst_labels, index = projection_table(src, dst, TYPES)
    pos = {lab: i for i, lab in enumerate(src_labels)}
    for n, spans in random_cases(rng, 200):
        y_src = spans_to_labels(spans, n, src)
        projected = [dst_labels[index[pos[lab]]] for lab in y_src]
        assert projected == spans_to_labels(spans, n, dst)


def test_projection_examples():
    src, dst, index = projection_table("BIES", "IOB2", ["DNA"])
    m = {s: dst[j] for s, j in zip(src, index, strict=True)}
    assert m == {
        "B-O": "O", "I-O": "O", "E-O": "O", "S-O": "O",
        "B-DNA": "B-DNA", "I-DNA": "I-DNA", "E-DNA": "I-DNA", "S-DNA": "B-DNA",
    }


@pytest.mark.parametrize("src,dst", [("IOB2", "IOB1"), ("IO", "IOB2"), ("IOB2", "IOBES"),
                                     ("IOB1", "IO"), ("IOB2", "IOE2")])
def test_projection_refused_where_not_label_wise(src, dst):
    with pytest.raises(ValueError, match="no label-wise projection"):
        projection_table(src, dst, TYPES)


# --- transition masks ------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_transition_mask_equals_well_formedness(scheme, rng):
    labels = scheme_labels(scheme, ["DNA", "RNA"])
    start, trans, end = transition_mask(scheme, labels)
    idx = {lab: i for i, lab in enumerate(labels)}

    def allowed(seq):
        ii = [idx[x] for x in seq]
        return bool(start[ii[0]] and end[ii[-1]] and all(trans[a, b] for a, b in zip(ii, ii[1:])))

    # exhaustive over all sequences of length 1..3 (and random longer ones)
    seqs = [list(s) for n in (1, 2, 3) for s in itertools.product(labels, repeat=n)]
    seqs += [list(rng.choice(labels, size=6)) for _ in range(2000)]
    for seq in seqs:
        assert allowed(seq) == (repair(seq, scheme) == seq), (scheme, seq)


# --- the real corpus ----------------------------------------------------------------


def _jnlpba_label_sequences():
    path = data_path("jnlpba", "train.iob2")
    sents, cur = [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("###MEDLINE"):
                if cur:
                    sents.append(cur)
                    cur = []
                continue
            cur.append(line.rsplit("\t", 1)[1])
    return sents


@pytest.mark.slow
def test_round_trip_on_jnlpba_training_set():
    y = _jnlpba_label_sequences()
    assert len(y) == 18696
    ill_formed = [i for i, s in enumerate(y) if repair(s) != s]
    # one sentence of the rebuilt corpus starts with I-protein (a split artefact)
    assert len(ill_formed) == 1
    merged = 0
    for scheme in SCHEMES:
        for labels in y:
            back = convert(convert(labels, "IOB2", scheme), scheme, "IOB2")
            if scheme in LOSSLESS_SCHEMES:
                assert back == repair(labels)
            elif back != repair(labels):
                merged += 1
                # IO only ever loses the boundary between adjacent same-type entities
                assert labels_to_spans(back) == merge_adjacent_same_type(labels_to_spans(labels))
    assert merged > 0  # JNLPBA does have adjacent same-type entities


def test_projection_table_dtype():
    _, _, index = projection_table("BIES", "IO", ["DNA"])
    assert index.dtype == np.intp


def test_labels_to_spans_equals_the_segments_policy_on_random_labels():
    """labels_to_spans reads only the non-"O" tokens; _segments reads every token."""
    import random

    from skbioner.schemes._schemes import _segments

    vocab = ["O", "B-p", "I-p", "E-p", "S-p", "B-d", "I-d", "E-d", "S-d", "B-O", "I-O",
             "E-O", "S-O", "X", "I-", "", "B-x-y"]
    rng = random.Random(0)
    for _ in range(20000):
        lab = [rng.choice(vocab) for _ in range(rng.randrange(0, 12))]
        expected = [(t, s, e) for t, s, e in _segments(lab) if t is not None]
        assert labels_to_spans(lab) == expected, lab
        assert labels_to_spans(tuple(lab)) == expected
        assert labels_to_spans(iter(lab)) == expected
