"""Word classes: the compiled Brown clustering against its oracle, the PPMI embeddings, the
class tables and their annotator, and the shipped classes' provenance."""

import gzip
import hashlib
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

from skbioner import Sentence
from skbioner.annotate import (
    BUNDLED_CLASSES,
    UNKNOWN,
    BrownClusterer,
    EmbeddingClusterer,
    WordClassAnnotator,
    normalize_word,
)
from skbioner.annotate._brown_kernel import Counts, _run, brown_merges, new_state
from skbioner.annotate._embeddings import ppmi_matrix
from skbioner.annotate._word_classes import count_corpus
from skbioner.features import FeatureGroup, TokenFeaturizer
from skbioner.io import CorpusFormatError, read_word_classes, write_word_classes
from tests.annotate.brown_oracle import brown, losses
from tests.conftest import data_path

# -- the compiled Brown clustering against the oracle -------------------------------------


def random_corpus(seed, n_types=25, n_sentences=60):
    """Zipfian random sentences as word ids by decreasing frequency; bigram dict and counts."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n_types + 1)
    sents = [rng.choice(n_types, size=rng.integers(2, 12), p=p / p.sum())
             for _ in range(n_sentences)]
    counts = np.bincount(np.concatenate(sents), minlength=n_types)
    order = np.lexsort((np.arange(n_types), -counts))
    rank = np.empty(n_types, int)
    rank[order] = np.arange(n_types)
    sents = [rank[s] for s in sents]
    counts = counts[order]
    counts = counts[counts > 0].astype(float)
    bigram = {}
    for s in sents:
        for a, b in zip(s[:-1].tolist(), s[1:].tolist()):
            bigram[(a, b)] = bigram.get((a, b), 0.0) + 1
    return bigram, counts, sum(map(len, sents))


def _matrix(bigram, V):
    rows, cols = zip(*bigram)
    return sp.csr_matrix((list(bigram.values()), (rows, cols)), shape=(V, V))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_clusters", [3, 6])
def test_brown_kernel_matches_oracle(seed, n_clusters):
    bigram, counts, N = random_corpus(seed)
    owner, merges, loss, n_leaf = brown_merges(_matrix(bigram, len(counts)), counts, N,
                                               n_clusters, chunk=4)
    expected, expected_owner = brown(bigram, counts, N, n_clusters)
    assert [tuple(m) for m in merges.tolist()] == [(a, b) for a, b, _ in expected]
    np.testing.assert_allclose(loss, [x for _, _, x in expected], rtol=1e-9, atol=1e-12)
    assert owner.tolist() == expected_owner
    assert n_leaf == len(counts) - n_clusters


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_brown_kernel_keeps_every_merge_loss_exact(seed):
    """After each word, every pair's incremental loss equals the loss recomputed from AMI."""
    bigram, counts, N = random_corpus(seed, n_types=20)
    V, C = len(counts), 5
    M = _matrix(bigram, V).astype(np.float64)
    Mt = sp.csr_matrix(M.T)
    tables = []
    brown(bigram, counts, N, C, on_step=lambda cl: tables.append(losses(cl, bigram, counts, N)))
    state, progress = new_state(V, C, N), np.zeros(1, np.int64)
    words = Counts(M.indptr, M.indices, M.data, Mt.indptr, Mt.indices, Mt.data, counts)
    for w in range(V):
        _run(words, C, w, w + 1, state, progress)
        L = state.L
        for (s, t), expected in tables[w].items():
            assert L[s, t] == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_brown_first_merges_interchangeable_words():
    # "IL-2" and "IL-4" (and "cells"/"lines") occur in exactly the same contexts
    X = [["the", "IL-2", "gene", "in", "T", "cells"], ["the", "IL-4", "gene", "in", "T", "lines"],
         ["the", "IL-2", "gene", "in", "T", "lines"], ["the", "IL-4", "gene", "in", "T", "cells"],
         ["a", "kinase", "binds", "the", "receptor"]] * 3
    b = BrownClusterer(n_clusters=6, min_count=1, normalize="none").fit(X)
    c = b.classes_of(["IL-2", "IL-4", "cells", "lines", "kinase", "IL-9"])["brown"]
    assert c[0] == c[1] and c[2] == c[3] and c[0] != c[2]
    assert c[5] == UNKNOWN
    codes = set(b.table()[1]["brown"])
    assert len(codes) == 6 and all(set(x) <= {"0", "1"} for x in codes)
    # the leaves of a binary tree: no code is a prefix of another
    assert not any(a != b and b.startswith(a) for a in codes for b in codes)
    assert len(b.losses_) == b.n_words_ - 1 and np.all(b.losses_ > -1e-12)


def test_brown_normalization_and_min_count():
    X = [["IL-2", "binds", "IL-4"], ["il-7", "binds", "IL-12"], ["rare", "binds", "IL-2"]]
    b = BrownClusterer(n_clusters=2, min_count=2).fit(X)
    assert set(b.words_) == {"il-0", "binds"}  # "rare" and "il-00" (IL-12) are seen once
    assert b.classes_of(["IL-9"])["brown"] == b.classes_of(["il-3"])["brown"]
    assert b.classes_of(["rare"])["brown"] == [UNKNOWN]
    with pytest.raises(ValueError, match="min_count=5"):
        BrownClusterer(min_count=5).fit(X)


def test_normalize_word():
    assert normalize_word("NF-kappaB1") == "nf-kappab0"
    assert normalize_word("NF-kappaB1", "lower") == "nf-kappab1"
    assert normalize_word("NF-kappaB1", "none") == "NF-kappaB1"


# -- embeddings ---------------------------------------------------------------------------


def test_ppmi_matches_dense_formula():
    rng = np.random.default_rng(0)
    ids = rng.integers(-1, 6, size=200)
    offsets = np.array([0, 37, 90, 91, 150, 200])
    got = ppmi_matrix(ids, offsets, 6, window=2).toarray()
    counts = np.zeros((6, 6))
    for a, b in zip(offsets[:-1], offsets[1:]):
        s = ids[a:b]
        for i in range(len(s)):
            for d in (1, 2):
                if i + d < len(s) and s[i] >= 0 and s[i + d] >= 0:
                    counts[s[i], s[i + d]] += 1 / d
                    counts[s[i + d], s[i]] += 1 / d
    D = counts.sum()
    pw = counts.sum(1) / D
    pc = counts.sum(0) ** 0.75
    pc /= pc.sum()
    with np.errstate(divide="ignore"):
        pmi = np.log(counts / D / np.outer(pw, pc))
    np.testing.assert_allclose(got, np.where(pmi > 0, pmi, 0), rtol=1e-5, atol=1e-6)


def test_embedding_classes_group_words_of_identical_contexts():
    X = [["the", "IL-2", "gene", "in", "T", "cells"], ["the", "IL-4", "gene", "in", "T", "cells"],
         ["a", "kinase", "binds", "the", "receptor"], ["a", "kinase", "binds", "the", "DNA"],
         ["we", "found", "no", "effect", "here"]] * 4
    e = EmbeddingClusterer(n_clusters=(2, 4), n_components=4, min_count=1, normalize="lower",
                           random_state=0).fit(X)
    assert e.columns_ == ("emb2", "emb4")
    c = e.classes_of(["IL-2", "IL-4", "receptor", "DNA", "unseen"])
    for col in ("emb2", "emb4"):
        assert c[col][0] == c[col][1] and c[col][2] == c[col][3]
        assert c[col][4] == UNKNOWN
    assert e.embedding_.shape == (e.n_words_, 4)
    np.testing.assert_allclose(np.linalg.norm(e.embedding_, axis=1), 1, rtol=1e-5)


def test_count_corpus_orders_by_frequency():
    X = [["b", "a", "a"], ["c", "b", "a", "x"]]
    words, counts, ids, offsets = count_corpus(X, "none", 1)
    assert words == ["a", "b", "c", "x"] and counts.tolist() == [3, 2, 1, 1]
    assert ids.tolist() == [1, 0, 0, 2, 1, 0, 3] and offsets.tolist() == [0, 3, 7]


# -- tables and the annotator -------------------------------------------------------------


def test_table_roundtrip_and_annotation(tmp_path):
    X = [["the", "IL-2", "gene"], ["the", "IL-4", "receptor"], ["a", "gene"]] * 4
    b = BrownClusterer(n_clusters=2, min_count=1).fit(X)
    e = EmbeddingClusterer(n_clusters=(2,), n_components=2, min_count=1, random_state=0).fit(X)
    path = tmp_path / "classes.tsv.gz"
    write_word_classes(path, [b, e], notes=["fitted on a toy corpus"])
    words, cols, normalize, notes = read_word_classes(path)
    assert normalize == "lower-digits" and notes == ["fitted on a toy corpus"]
    assert list(cols) == ["brown", "emb2"] and sorted(words) == sorted(b.words_)
    ann = WordClassAnnotator(path).fit()
    s = Sentence(["The", "IL-9", "unseen"], doc_id="d1", pos=["DT", "NN", "JJ"])
    (out,) = ann.transform([s])
    assert out.doc_id == "d1" and out.column("pos") == ("DT", "NN", "JJ")
    assert list(out.column("brown")) == b.classes_of(["the", "il-0", "x"])["brown"]
    assert out.column("emb2")[2] == UNKNOWN
    assert s.annotations == {"pos": ("DT", "NN", "JJ")}  # the input is not modified
    only = WordClassAnnotator(path, columns=("emb2",)).fit().transform([s])[0]
    assert set(only.annotations) == {"pos", "emb2"}
    with pytest.raises(ValueError, match="not in"):
        WordClassAnnotator(path, columns=("km",)).fit()


def test_annotator_unfitted_and_bad_files(tmp_path):
    with pytest.raises(NotFittedError):
        WordClassAnnotator().transform([["a"]])
    bad = tmp_path / "bad.tsv"
    bad.write_text("word\tbrown\nthe\t01\n")
    with pytest.raises(ValueError, match=r"bad.tsv:1: not a word class table"):
        WordClassAnnotator(bad).fit()
    bad.write_text("# skbioner word classes; normalize=lower\nword\tbrown\nthe\t01\ngene\n")
    with pytest.raises(CorpusFormatError, match=r"bad.tsv:4: expected 2 tab-separated fields") \
            as excinfo:  # the error of every corpus format
        read_word_classes(bad)
    assert (excinfo.value.path, excinfo.value.line) == (str(bad), 4)
    with pytest.raises(ValueError, match="column 'brown' is in two tables"):
        write_word_classes(tmp_path / "x.tsv", [(["a"], {"brown": ["0"]}),
                                                 (["b"], {"brown": ["1"]})])


def test_featurizer_reads_brown_prefixes():
    table = (["il-0", "gene", "the"], {"brown": ["0110", "10", "111010"]})
    ann = WordClassAnnotator.__new__(WordClassAnnotator)  # a table without a file
    ann.classes, ann.columns = "bundled", None
    ann._set_table(table[0], table[1], "lower-digits")
    X = ann.transform([["the", "IL-2", "gene", "zz"]])
    groups = [FeatureGroup("brown", "annotation", (0,), {"column": "brown",
                                                        "prefixes": (2, 4)})]
    f = TokenFeaturizer(templates=groups)
    m = f.fit_transform(X).matrix
    names = f.get_feature_names_out()
    got = [sorted(names[m.indices[m.indptr[i]:m.indptr[i + 1]]]) for i in range(4)]
    assert got == [["brown2[0]=11", "brown4[0]=1110"], ["brown2[0]=01", "brown4[0]=0110"],
                   ["brown2[0]=10", "brown4[0]=10"], ["brown2[0]=<unk>", "brown4[0]=<unk>"]]


# -- the shipped classes ------------------------------------------------------------------


def _bundled_source():
    readme = (BUNDLED_CLASSES.parent / "README.md").read_text()
    name = re.search(r"fitted on `unlabeled/([^`]+)`", readme).group(1)
    sha = re.search(r"SHA-256 `([0-9a-f]{64})`", readme).group(1)
    return name, sha


def _sentences_of_columns(path):
    out, cur = set(), []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("###"):
            if cur:
                out.add(tuple(cur))
            cur = []
        else:
            cur.append(line.split("\t")[0])
    if cur:
        out.add(tuple(cur))
    return out


def test_bundled_classes_load_and_carry_attribution():
    ann = WordClassAnnotator().fit()
    assert ann.n_words_ > 50_000 and "brown" in ann.columns_
    assert BUNDLED_CLASSES.stat().st_size < 8e6
    readme = (BUNDLED_CLASSES.parent / "README.md").read_text()
    assert "CC BY" in readme and "biomed-ccby-sources.tsv" in readme
    assert (BUNDLED_CLASSES.parent / "word_classes_sources.tsv.gz").is_file()


@pytest.mark.parametrize("corpus", ["jnlpba/test.iob2", "bionlp13cg/test.tsv", "bc5cdr/test.tsv"])
def test_bundled_classes_text_has_no_test_sentence(corpus):
    """The text the shipped classes were fitted on holds no sentence of a test file."""
    name, sha = _bundled_source()
    source = data_path("unlabeled", name)  # skips when the shared data is absent
    test = data_path(*corpus.split("/"))
    raw = source.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == sha, "the README names another version of the text"
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = {tuple(line.split()) for line in raw.decode("utf-8").splitlines()}
    overlap = [s for s in _sentences_of_columns(test) if len(s) > 3 and s in text]
    assert not overlap, f"{len(overlap)} test sentences in the text, e.g. {' '.join(overlap[0])}"


def test_annotation_matches_a_token_by_token_oracle():
    """The classes of every token, looked up word by word in ``table()`` (the slow oracle)."""
    ann = WordClassAnnotator("bundled").fit()
    words, cols = ann.table()
    oracle = {name: dict(zip(words, values, strict=True)) for name, values in cols.items()}
    X = [Sentence(["IL-12", "Gene", "expression", "in", "T", "cells", "zzqx1"], doc_id="a"),
         Sentence(["NF-kappaB", "(", "p50", ")", "binds", "DNA", "."], pos=["NN"] * 7),
         Sentence(["a"])]
    for columns in (None, ("emb64", "brown")):
        ann = WordClassAnnotator("bundled", columns=columns).fit()
        for s, out in zip(X, ann.transform(X), strict=True):
            assert tuple(out) == tuple(s) and out.doc_id == s.doc_id
            assert list(out.annotations) == [*s.annotations, *(columns or ann.columns_)]
            for name in columns or ann.columns_:
                assert out.column(name) == tuple(
                    oracle[name].get(normalize_word(w), UNKNOWN) for w in s)
    assert ann.transform([]) == []
