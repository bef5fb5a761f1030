"""recut: words joined at hyphens and slashes, cut again by one rule whatever the input cuts."""

import numpy as np
import pytest

from skbioner._sentence import Sentence
from skbioner.text import BioTokenizer, load_cut_table, recut
from skbioner.text._recut import _SEP, _pieces, _pieces_each


def _words(sents):
    return [list(s) for s in sents]


def test_pieces_at_every_hyphen_and_slash():
    sents, owners = recut([["Tax", "-induced", "IL-2", "gene"], ["no", "cut"]])
    assert _words(sents) == [["Tax", "-", "induced", "IL", "-", "2", "gene"], ["no", "cut"]]
    assert owners[0][:, 0].tolist() == [0, 1, 1, 2, 2, 2, 3]
    assert owners[1] is None


def test_table_cuts_the_joined_word_whatever_the_input_cut():
    table = load_cut_table()
    for cuts in (None, table, "jnlpba"):
        a = recut([["Tax", "-induced", "ATF", "/", "CREB", "anti-", "CD3"]], cuts)[0]
        b = recut([["Tax-induced", "ATF/CREB", "anti-CD3"]], cuts)[0]
        assert _words(a) == _words(b)
    # the table keeps what the corpus keeps whole and cuts what it usually cuts
    got = _words(recut([["IL-2-induced", "ATF/CREB"]], "jnlpba")[0])[0]
    assert got[:2] == ["IL-2", "-induced"]


def test_unchanged_sentences_are_the_input_objects():
    s = Sentence(["IL-2", "gene"], doc_id="d1")
    out, owners = recut([s], "jnlpba")
    assert out[0] is s and owners[0] is None


def test_annotations_and_doc_id_follow_the_tokens():
    s = Sentence(["Tax-induced", "gene"], doc_id="d1", pos=["JJ", "NN"])
    out, owners = recut([s])
    assert out[0].doc_id == "d1"
    assert out[0].column("pos") == ("JJ", "JJ", "JJ", "NN")


@pytest.mark.parametrize("cuts", [None, "jnlpba"])
def test_offsets_of_raw_text_tokens(cuts):
    text = ("Tax-induced IL-2/IL-4 expression in anti-CD3 -stimulated T cells ( ATF/CREB ), "
            "NF-kappaB-dependent; a - b / c --- x.")
    sents, offs = BioTokenizer().tokenize_text(text)
    new, owners, new_offs = recut(sents, cuts, offs)
    for s, o in zip(new, new_offs, strict=True):
        assert len(s) == len(o)
        for tok, (a, b) in zip(s, o.tolist()):
            assert text[a:b].replace(" ", "") == tok
        assert np.all(np.diff(o[:, 0]) > 0)


def test_one_split_of_the_batch_equals_token_by_token(rng):
    alphabet = list("ab-/1X")
    words = ["".join(rng.choice(alphabet, size=rng.integers(1, 6))) for _ in range(400)]
    got = _pieces(_SEP.join(words))
    want = _pieces_each(words)
    assert got[0] == want[0]
    assert got[1].tolist() == want[1].tolist() and got[2].tolist() == want[2].tolist()


def test_a_batch_is_cut_in_one_split_unless_a_word_holds_the_separator(monkeypatch):
    from skbioner.text import _recut

    X = [["Tax", "-induced", "IL-2"], ["ATF/CREB", "genes"]]
    want = recut(X)

    def token_by_token(words):
        raise AssertionError("the batch fell back to cutting token by token")

    with monkeypatch.context() as m:  # the separators joining the words are not the word's
        m.setattr(_recut, "_pieces_each", token_by_token)
        got = recut(X)
    assert [list(s) for s in got[0]] == [list(s) for s in want[0]]
    odd = recut([["a" + _SEP + "-b", "c"]])[0]  # a word holding it: token by token
    assert list(odd[0]) == ["a" + _SEP, "-", "b", "c"]


def test_random_sentences_keep_every_character(rng):
    alphabet = list("ab-/1X")
    X = [["".join(rng.choice(alphabet, size=rng.integers(1, 6)))
          for _ in range(rng.integers(0, 8))] for _ in range(200)]
    for cuts in (None, "jnlpba"):
        out, owners = recut(X, cuts)
        for s, new, own in zip(X, out, owners, strict=True):
            assert "".join(new) == "".join(s)
            if own is not None:
                assert np.all(np.diff(own[:, 0]) >= 0) and np.all(own[:, 1] >= own[:, 0])
                assert own[-1, 1] == len(s) - 1 and own[0, 0] == 0


def _reference(sentence, table):
    """recut of one sentence, token by token in pure Python (the oracle)."""
    import re

    pieces = [(p, i) for i, w in enumerate(sentence) for p in re.split(r"([-/])", w) if p]
    groups, cur = [], []
    for p, i in pieces:
        if cur and not (p in "-/" or cur[-1][0] in "-/"):
            groups.append(cur)
            cur = []
        cur.append((p, i))
    if cur:
        groups.append(cur)
    out = []
    for g in groups:
        if table is None or len(g) == 1:
            out += [(p, i, i) for p, i in g]
            continue
        word = "".join(p for p, _ in g)
        cuts = set(table.cuts(word))
        tok, at = [g[0]], len(g[0][0])
        for p, i in g[1:]:
            if at in cuts:
                out.append(("".join(q for q, _ in tok), tok[0][1], tok[-1][1]))
                tok = []
            tok.append((p, i))
            at += len(p)
        out.append(("".join(q for q, _ in tok), tok[0][1], tok[-1][1]))
    return out


@pytest.mark.parametrize("cuts", [None, "jnlpba"])
def test_recut_equals_the_pure_python_reference(rng, cuts):
    table = None if cuts is None else load_cut_table()
    vocab = ["IL", "2", "Tax", "induced", "ATF", "CREB", "anti", "CD3", "NF", "kappaB",
             "dependent", "cells", "T", "-", "/", "(", "alpha", "beta", "x"]
    X = []
    for _ in range(300):
        n = int(rng.integers(0, 7))
        X.append(["".join(rng.choice(vocab, size=rng.integers(1, 4))) for _ in range(n)])
    out, owners = recut(X, cuts)
    for s, new, own in zip(X, out, owners, strict=True):
        want = _reference(s, table)
        assert list(new) == [w for w, _, _ in want], s
        got = [(i, i) for i in range(len(s))] if own is None else [tuple(o) for o in own.tolist()]
        assert got == [(a, b) for _, a, b in want], s


def test_empty_batches_and_empty_sentences_anywhere():
    from skbioner.text import cut_at_boundaries

    assert recut([], None, []) == ([], [], [])
    assert recut([[]]) == ([Sentence([])], [None])
    sents, owners = recut([[], ["Tax-induced"], []], None)
    assert [list(s) for s in sents] == [[], ["Tax", "-", "induced"], []]
    assert owners[0] is None and owners[2] is None
    out = cut_at_boundaries([[], ["Tax", "-", "induced"], []], [set(), {1}, set()])
    assert [list(s) for s in out] == [[], ["Tax", "-induced"], []]
    assert [list(s) for s in cut_at_boundaries([["a", "-", "b"], []], [set(), set()])] == \
        [["a-b"], []]
