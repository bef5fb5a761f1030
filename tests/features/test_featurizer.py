"""TokenFeaturizer against the per-token reference implementation, and its contract."""

import copy
import pickle

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import (
    TEMPLATE_PRESETS,
    FeatureGroup,
    SentenceFeatures,
    TokenFeaturizer,
    get_preset,
)
from tests.conftest import data_path
from tests.features.oracle import Oracle

WORDS = [
    ["IL-2", "gene", "expression", "and", "NF-kappaB", "activation", "require", "CD28", "."],
    ["Jurkat", "T", "cells", "(", "1.5", "x", "10", ")", "express", "IL-2", "receptor", "alpha"],
    ["The", "IkappaBalpha", "/", "p65", "complex", "binds", "the", "kappa", "B", "site", "."],
    ["VIII"],
    ["Factor", "VIII", "and", "TATA", "-", "box", "binding", "protein", "(", "TBP", ")", ","],
    ["the", "the", "gene", "gene", "the"],
    ["p53", "Mdm2", "1998", "42", "interleukin-10", "GATA-1", "beta-globin", "c-Myc", "PI3K"],
]

POS = [
    ["NN", "NN", "NN", "CC", "NN", "NN", "VBP", "NN", "."],
    ["NNP", "NN", "NNS", "(", "CD", "SYM", "CD", ")", "VBP", "NN", "NN", "NN"],
    ["DT", "NN", "SYM", "NN", "NN", "VBZ", "DT", "NN", "NN", "NN", "."],
    ["CD"],
    ["NN", "CD", "CC", "NN", ":", "NN", "JJ", "NN", "(", "NN", ")", ","],
    ["DT", "DT", "NN", "NN", "DT"],
    ["NN", "NN", "CD", "CD", "NN", "NN", "NN", "NN", "NN"],
]


def _bio(words, entity_words):
    out, prev = [], False
    for w in words:
        if w in entity_words:
            out.append("I-protein" if prev else "B-protein")
            prev = True
        else:
            out.append("O")
            prev = False
    return out


def _dict_column(words):
    return _bio(words, {"IL-2", "NF-kappaB", "CD28", "receptor", "alpha", "p65", "TBP", "p53"})


def annotated(words=WORDS, pos=POS):
    return [
        Sentence(
            w,
            pos=p,
            chunk=["B-NP" if i % 3 == 0 else "I-NP" for i in range(len(w))],
            hmm=[f"s{len(t) % 4}" for t in w],
            # Brown-style bit strings of several lengths; <unk> for a word without a class
            brown=[format(sum(map(ord, t)), "b")[: 1 + len(t) % 6] if len(t) % 5 else "<unk>"
                   for t in w],
            emb8=[str(len(t) % 8) for t in w],
            emb3=[str(sum(map(ord, t)) % 3) for t in w],
            dict_protein=[x[0] for x in _dict_column(w)],
            dict_cell=["B" if t in ("Jurkat", "T") else "O" for t in w],
            # LexiconMatcher's column: several types' positions a token, "O" for none
            lex=[("gene:S protein:B" if len(t) % 3 == 0 else "cell_type:E")
                 if t[0].isupper() else "O" for t in w],
        )
        for w, p in zip(words, pos, strict=True)
    ]


def random_sentences(rng, n_sentences=40, vocab_size=25, max_len=9):
    vocab = [
        "IL-2", "il-2", "gene", "Gene", "the", "NF-kappaB", "alpha", "CD4", "T", "cells",
        "(", ")", ",", ".", "1.5", "VIII", "binds", "protein", "p53", "receptor", "kinase",
        "GATA-1", "x", "of", "beta",
    ][:vocab_size]  # fmt: skip
    out = []
    for _ in range(n_sentences):
        n = int(rng.integers(1, max_len + 1))
        out.append([vocab[int(j)] for j in rng.integers(0, len(vocab), n)])
    return out


def active_names(featurizer, features):
    """Per-token sets of the names of active columns."""
    names = featurizer.get_feature_names_out()
    m = features.matrix.tocsr()
    return [set(names[m.indices[m.indptr[i] : m.indptr[i + 1]]]) for i in range(m.shape[0])]


def assert_matches_oracle(templates, X, y=None, lowercase=False, exclude=()):
    f = TokenFeaturizer(templates=templates, lowercase=lowercase, exclude=exclude)
    Xt = f.fit_transform(X, y)
    oracle = Oracle(templates, lowercase=lowercase, exclude=exclude).fit(X, y)
    expected = oracle.features(X)
    got = active_names(f, Xt)
    assert len(got) == len(expected)
    for t, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g == e, f"token {t}: missing {sorted(e - g)[:8]}, extra {sorted(g - e)[:8]}"
    # every vocabulary column is used, names are unique
    names = f.get_feature_names_out()
    assert len(set(names)) == len(names) == f.n_features_out_
    assert set(names) == set().union(*expected)
    return f, Xt


# -- each template family against the reference -------------------------------------


@pytest.mark.parametrize("preset", ["chan", "kazama", "nerbio"])
def test_presets_match_oracle_plain_tokens(preset):
    assert_matches_oracle(preset, WORDS)


@pytest.mark.parametrize("preset", ["chan", "kazama", "nerbio"])
def test_presets_match_oracle_with_annotations(preset):
    f, _ = assert_matches_oracle(preset, annotated())
    used = {g.name for g in f.groups_}
    if preset == "nerbio":
        assert {"pos", "chunk", "pos-1&pos0", "w0&pos0"} <= used
    if preset == "kazama":
        assert {"pos", "hmm", "lwc", "rwc"} <= used
    assert {"brown", "emb", "lexicon"} <= used  # word classes and lexicons, in every preset
    assert f.dictionary_columns_.get("emb") == ("emb3", "emb8")
    assert f.dictionary_columns_.get("dictionary") == ("dict_cell", "dict_protein") or (
        preset == "kazama" and "dictionary" not in used
    )


def test_optional_groups_dropped_without_annotations():
    f = TokenFeaturizer(templates="nerbio").fit(WORDS)
    names = f.get_template_names()
    assert "pos" not in names and "pos-1&pos0" not in names and "dictionary" not in names
    assert "w-1&w0" in names
    assert "pos" in TokenFeaturizer(templates="nerbio").get_template_names()


def test_zhou_matches_oracle_on_sample():
    corpus = load_jnlpba_sample("train")
    X, y = corpus.X[:300], corpus.y[:300]
    groups = get_preset("zhou", min_trigger_count=2, affix_min_count=3)
    f, _ = assert_matches_oracle(groups, X, y)
    oracle = Oracle(groups).fit(X, y)
    assert f.mined_["morph"] == oracle.mined["morph"]
    assert len(f.mined_["morph"]) > 5
    for g in ("head1", "head2"):
        assert set(f.mined_[g]) == oracle.mined[g]
        assert f.mined_[g]
    assert any(ws == ("cells",) and c == "cell_type" for ws, c in f.mined_["head1"])


def test_hand_written_features_of_one_token():
    f = TokenFeaturizer(templates="chan")
    Xt = f.fit_transform([["the", "NF-kappaB", "site"]])
    got = active_names(f, Xt)[1]
    expected = {
        "w[-2]=<BOS>", "w[-1]=the", "w[0]=NF-kappaB", "w[1]=site", "w[2]=<EOS>",
        "w[-2]&w[-1]=<BOS>|the", "w[-1]&w[0]=the|NF-kappaB", "w[0]&w[1]=NF-kappaB|site",
        "w[1]&w[2]=site|<EOS>", "w[-2]&w[-1]&w[0]=<BOS>|the|NF-kappaB",
        "w[-1]&w[0]&w[1]=the|NF-kappaB|site", "w[0]&w[1]&w[2]=NF-kappaB|site|<EOS>",
        "pre1[0]=N", "pre2[0]=NF", "pre3[0]=NF-", "pre4[0]=NF-k", "pre5[0]=NF-ka",
        "suf1[0]=B", "suf2[0]=aB", "suf3[0]=paB", "suf4[0]=ppaB", "suf5[0]=appaB",
        "wc[-1]=aaa", "wc[0]=AA_aaaaaA", "wc[1]=aaaa",
        "bwc[-1]=a", "bwc[0]=A_aA", "bwc[1]=a",
        "orth[0]=InitCap", "orth[0]=HasDash", "orth[0]=Greek",
        "len[-1]=3", "len[0]=7-9", "len[1]=4",
    }  # fmt: skip
    assert got == expected


def test_kazama_substrings_and_word_cache():
    groups = get_preset("kazama", substring_max_length=4, cache_window=2)
    assert "substring" in [g.name for g in groups]
    f, Xt = assert_matches_oracle(groups, WORDS)
    names = active_names(f, Xt)
    # "the the gene gene the": token 4 ("the") has lwc2 = {gene, the}, no rwc
    start = sum(len(s) for s in WORDS[:5])
    tok = names[start + 4]
    assert {n for n in tok if n.startswith("lwc")} == {"lwc2=gene", "lwc2=the"}
    assert not {n for n in tok if n.startswith("rwc")}
    assert {n for n in names[start] if n.startswith("rwc")} == {"rwc2=the", "rwc2=gene"}
    assert {n for n in names[start + 3] if n.startswith("rwc")} == {"rwc2=the"}


def test_custom_groups_all_kinds_match_oracle():
    groups = [
        FeatureGroup("w", "word", (-1, 0), {"lowercase": True}),
        FeatureGroup("pos", "annotation", (-2, 0, 3), {"column": "pos"}),
        FeatureGroup("brown", "annotation", (-1, 0, 1), {"column": "brown", "prefixes": (2, 4)}),
        FeatureGroup("pre", "prefix", (0, 1), {"lengths": (2, 4)}),
        FeatureGroup("suf", "suffix", (-1,), {"lengths": (3,)}),
        FeatureGroup("sub", "substring", (0,), {"min_length": 2, "max_length": 3}),
        FeatureGroup("wc", "word_class", (0, 2)),
        FeatureGroup("bwc", "brief_word_class", (1,)),
        FeatureGroup("orth", "orthographic", (-1, 0)),
        FeatureGroup("len", "length", (0,), {"bins": (2, 6)}),
        FeatureGroup("wf", "formation", (-1, 0, 1)),
        FeatureGroup("dict", "dictionary", (-1, 0)),
        FeatureGroup("w-1&w1", "conjunction", (-1, 1), {"of": "word"}),
        FeatureGroup("w0&pos0&wc1", "conjunction", (0, 0, 1),
                     {"of": ("word", "pos", "word_class")}),
        FeatureGroup("bwc0&len0&wf-1", "conjunction", (0, 0, -1),
                     {"of": ("brief_word_class", "length", "formation")}),
        FeatureGroup("lwc", "word_cache", (0,), {"side": "left", "window": 3}),
        FeatureGroup("rwc", "word_cache", (0,), {"side": "right", "window": 1, "label": "R"}),
    ]  # fmt: skip
    assert_matches_oracle(groups, annotated())
    assert_matches_oracle(groups, annotated(), lowercase=True)


@pytest.mark.parametrize("preset", ["chan", "nerbio"])
def test_random_sentences_match_oracle(rng, preset):
    X = random_sentences(rng)
    assert_matches_oracle(preset, X)
    assert_matches_oracle(preset, X, lowercase=True, exclude=("w0&w1",))


def test_exclude_and_template_names():
    f = TokenFeaturizer(templates="chan", exclude=("w-1&w0", "prefix"))
    names = f.get_template_names()
    assert "w-1&w0" not in names and "prefix" not in names and "w0&w1" in names
    f.fit(WORDS)
    out = f.get_feature_names_out()
    assert not any(n.startswith("w[-1]&w[0]=") or n.startswith("pre") for n in out)
    assert any(n.startswith("w[0]&w[1]=") for n in out)
    # feature_ranges_ partition the columns by group, in order
    ranges = list(f.feature_ranges_.values())
    assert ranges[0][0] == 0 and ranges[-1][1] == f.n_features_out_
    for (a, b), (c, _) in zip(ranges, ranges[1:], strict=False):
        assert b == c and a <= b
    lo, hi = f.feature_ranges_["w0&w1"]
    assert all(n.startswith("w[0]&w[1]=") for n in out[lo:hi])
    with pytest.raises(ValueError, match="unknown feature group"):
        TokenFeaturizer(exclude=("nope",)).fit(WORDS)


# -- vocabulary, min_count, unseen features ------------------------------------------


def test_min_count_cutoff_counts_tokens(rng):
    X = random_sentences(rng, n_sentences=60)
    for min_count in (2, 5):
        f = TokenFeaturizer(templates="chan", min_count=min_count)
        Xt = f.fit_transform(X)
        expected_vocab = Oracle("chan").fit(X).vocabulary(X, min_count=min_count)
        assert set(f.get_feature_names_out()) == expected_vocab
        col_counts = np.asarray(Xt.matrix.sum(axis=0)).ravel()
        assert col_counts.min() >= min_count
        # the matrix is the oracle restricted to the kept vocabulary
        expected = Oracle("chan").fit(X).features(X)
        got = active_names(f, Xt)
        assert got == [e & expected_vocab for e in expected]
    # a feature on exactly one token is kept with min_count=1 and dropped with 2
    X2 = [["a", "b"], ["a", "c"]]
    names1 = set(TokenFeaturizer(min_count=1).fit(X2).get_feature_names_out())
    names2 = set(TokenFeaturizer(min_count=2).fit(X2).get_feature_names_out())
    assert "w[0]=b" in names1 and "w[0]=b" not in names2 and "w[0]=a" in names2


def test_unseen_features_dropped_at_transform(rng):
    train = random_sentences(rng, n_sentences=30, vocab_size=15)
    test = random_sentences(rng, n_sentences=20)  # includes words never seen in fit
    for preset in ("chan", "nerbio", "kazama"):
        f = TokenFeaturizer(templates=preset).fit(train)
        Xt = f.transform(test)
        vocab = set(f.get_feature_names_out())
        expected = Oracle(preset).fit(train).features(test)
        assert active_names(f, Xt) == [e & vocab for e in expected]
        assert Xt.n_features == f.n_features_out_
    f = TokenFeaturizer().fit([["alpha", "beta"]])
    Xt = f.transform([["zzz-unseen", "alpha"]])
    names = active_names(f, Xt)
    assert "w[0]=alpha" in names[1] and "w[-1]&w[0]=<BOS>|alpha" not in names[1]
    assert not any("zzz" in n for n in names[0] | names[1])


def test_unseen_annotation_values_dropped():
    X = annotated()
    f = TokenFeaturizer(templates="nerbio").fit(X)
    new = [Sentence(["IL-2", "gene"], pos=["XX", "NN"], chunk=["B-NP", "I-NP"],
                    dict_protein=["B", "O"], dict_cell=["O", "O"], brown=["0", "1"],
                    emb8=["1", "2"], emb3=["0", "0"], lex=["gene:S", "disease:S"])]  # fmt: skip
    names = active_names(f, f.transform(new))
    assert "pos[0]=XX" not in names[0] and "pos[-1]=XX" not in names[1]
    assert "lex[0]=gene:S" in names[0] and "lex[0]=disease:S" not in names[1]  # unseen
    assert "pos[0]=NN" in names[1] and "pos[-1]=NN" not in names[1]
    assert "w[0]&pos[0]=gene|NN" in names[1]
    assert not any(n.startswith("pos[-1]&pos[0]=") for n in names[1])


# -- hashing mode --------------------------------------------------------------------


def _column_supports(matrix):
    """Sorted list of the row sets of the used columns (labels forgotten)."""
    m = matrix.tocsr()
    used, cols = np.unique(m.indices, return_inverse=True)
    compact = sp.csr_matrix((m.data, cols.ravel(), m.indptr), shape=(m.shape[0], used.size)).tocsc()
    compact.sort_indices()
    supports = [
        tuple(compact.indices[compact.indptr[c] : compact.indptr[c + 1]].tolist())
        for c in range(used.size)
    ]
    return sorted(supports)


@pytest.mark.parametrize("preset", ["chan", "kazama", "nerbio", "zhou"])
def test_hashing_selects_same_pairs_as_vocabulary(preset):
    corpus = load_jnlpba_sample("train")
    # up to ~40k features in 2**31 - 1 columns: a collision is unlikely (and checked)
    X, y = corpus.X[:80], corpus.y[:80]
    vocab = TokenFeaturizer(templates=preset)
    V = vocab.fit_transform(X, y).matrix
    hashed = TokenFeaturizer(templates=preset, n_features=2**31 - 1)
    H = hashed.fit_transform(X, y).matrix
    assert H.shape == (V.shape[0], 2**31 - 1) and hashed.feature_ranges_ is None
    # no collision happened: one hash column per vocabulary feature, same entries
    assert np.unique(H.indices).size == V.shape[1] == vocab.n_features_out_
    assert H.nnz == V.nnz > 0
    # a bijection between vocabulary and hash columns maps the (token, feature)
    # pairs onto each other iff the multisets of column supports are equal
    assert _column_supports(V) == _column_supports(H)
    # and per token, the same number of features
    assert np.array_equal(np.diff(V.indptr), np.diff(H.indptr))


def test_hashing_is_stateless_and_stable():
    f1 = TokenFeaturizer(n_features=2**18).fit(WORDS[:2])
    f2 = TokenFeaturizer(n_features=2**18).fit(WORDS[3:])
    a, b = f1.transform(WORDS), f2.transform(WORDS)
    assert (a.matrix != b.matrix).nnz == 0
    assert a.matrix.shape == (sum(map(len, WORDS)), 2**18)
    assert a.matrix.max() == 1.0
    # a small space collides, values stay binary and rows distinct
    small = TokenFeaturizer(n_features=16).fit_transform(WORDS)
    assert small.matrix.max() == 1.0
    m = small.matrix.tocsr()
    for i in range(m.shape[0]):
        row = m.indices[m.indptr[i] : m.indptr[i + 1]]
        assert np.unique(row).size == row.size
    with pytest.raises(ValueError, match="hashing mode"):
        f1.get_feature_names_out()
    # above the marker limit rows are sorted
    big = TokenFeaturizer(n_features=2**25).fit_transform(WORDS).matrix
    assert big.has_canonical_format


def test_hash_values_fixed():
    """Hash columns must not change between versions (stored models rely on them)."""
    f = TokenFeaturizer(templates=[FeatureGroup("w", "word")], n_features=2**31 - 1)
    assert f.fit_transform([["the"], ["IL-2"]]).matrix.indices.tolist() == [
        546079238,
        2043277872,
    ]
    f = TokenFeaturizer(
        templates=[FeatureGroup("c", "conjunction", (-1, 0), {"of": "word"})], n_features=2**20
    )
    assert f.fit_transform([["the", "IL-2"]]).matrix.indices.tolist() == [889839, 32792]

    from skbioner.features._hashing import hash_strings, mix

    assert hash_strings(["the"])[0] == 3162218338  # murmurhash3_32("the", seed=0)
    expected = mix(hash_strings(["w[0]"])[0], hash_strings(["the"]))[0] % (2**31 - 1)
    assert expected == 546079238


# -- representation and sizes --------------------------------------------------------


def test_output_structure():
    f = TokenFeaturizer()
    Xt = f.fit_transform(WORDS)
    assert isinstance(Xt, SentenceFeatures)
    assert isinstance(Xt.matrix, sp.csr_matrix)
    assert Xt.matrix.dtype == np.float32
    assert Xt.offsets.dtype == np.int64
    assert Xt.lengths.tolist() == [len(s) for s in WORDS]
    assert len(Xt) == len(WORDS)
    assert np.all(Xt.matrix.data == 1)
    m = Xt.matrix.copy()
    m.has_sorted_indices = False
    m.sort_indices()
    m.sum_duplicates()
    assert (m != Xt.matrix).nnz == 0 and m.nnz == Xt.matrix.nnz
    assert np.array_equal(m.indices, Xt.matrix.indices)
    assert TokenFeaturizer(dtype=np.float64).fit_transform(WORDS).matrix.dtype == np.float64


@pytest.mark.parametrize("n_features", [None, 2**16])
def test_doc_ids_from_sentences(n_features):
    X = [Sentence(w, doc_id=f"PMID{i // 3}") for i, w in enumerate(WORDS)]
    f = TokenFeaturizer(n_features=n_features)
    expected = [s.doc_id for s in X]
    assert f.fit_transform(X).doc_ids.tolist() == expected
    Xt = f.transform(X)
    assert Xt.doc_ids.dtype == object and Xt.doc_ids.tolist() == expected
    assert Xt[[4, 0]].doc_ids.tolist() == ["PMID1", "PMID0"]
    # plain token lists and sentences without ids: no doc ids at all
    assert f.transform(WORDS).doc_ids is None
    assert f.transform([Sentence(w) for w in WORDS]).doc_ids is None
    # some with, some without
    mixed = f.transform([X[0], WORDS[1], X[2]])
    assert mixed.doc_ids.tolist() == ["PMID0", None, "PMID0"]
    assert pickle.loads(pickle.dumps(Xt)).doc_ids.tolist() == expected


def test_fit_transform_equals_fit_then_transform(rng):
    X = random_sentences(rng)
    for kwargs in ({}, {"n_features": 2**20}, {"min_count": 2}, {"templates": "kazama"}):
        a = TokenFeaturizer(**kwargs).fit_transform(X)
        b = TokenFeaturizer(**kwargs).fit(X).transform(X)
        assert (a.matrix != b.matrix).nnz == 0
        assert np.array_equal(a.offsets, b.offsets)


def test_fit_transform_featurizes_once(monkeypatch):
    from skbioner.features import _engine

    calls = []
    original = _engine.Call.table

    def counting(self, channel):
        calls.append(channel.key)
        return original(self, channel)

    monkeypatch.setattr(_engine.Call, "table", counting)
    f = TokenFeaturizer(templates=[FeatureGroup("o", "orthographic")])
    f.fit_transform(WORDS)
    assert len(calls) == 1
    calls.clear()
    f.fit(WORDS).transform(WORDS)
    assert len(calls) == 2


def test_empty_and_one_token_sentences():
    f = TokenFeaturizer().fit(WORDS)
    empty = f.transform([])
    assert len(empty) == 0 and empty.matrix.shape == (0, f.n_features_out_)
    assert empty.offsets.tolist() == [0]
    with_empty = f.transform([[], ["IL-2"], []])
    assert with_empty.lengths.tolist() == [0, 1, 0]
    one = TokenFeaturizer().fit_transform([["x"], ["y"]])
    names = active_names(TokenFeaturizer().fit([["x"], ["y"]]), one)
    assert "w[-1]&w[0]&w[1]=<BOS>|x|<EOS>" in names[0]
    assert_matches_oracle("chan", [["VIII"], ["a"], ["IL-2"]])
    assert_matches_oracle("kazama", [["VIII"]])
    h = TokenFeaturizer(n_features=2**10).fit(WORDS)
    assert h.transform([]).matrix.shape == (0, 2**10)
    with pytest.raises(ValueError, match="without tokens"):
        TokenFeaturizer().fit([])
    with pytest.raises(ValueError, match="without tokens"):
        TokenFeaturizer().fit([[], []])


# -- annotations and errors ----------------------------------------------------------


def test_missing_annotation_errors_name_group_and_sentence():
    X = annotated()
    group = FeatureGroup("pos", "annotation", (0,), {"column": "pos"})
    with pytest.raises(ValueError, match=r"'pos'.*X\[0\]"):
        TokenFeaturizer(templates=[group]).fit(WORDS)
    mixed = X[:2] + [WORDS[2]]
    with pytest.raises(ValueError, match=r"group 'pos'.*column 'pos'.*X\[2\]"):
        TokenFeaturizer(templates=[group]).fit(mixed)
    # optional groups still refuse a column present in only some sentences
    with pytest.raises(ValueError, match=r"X\[2\]"):
        TokenFeaturizer(templates="nerbio").fit(mixed)
    conj = FeatureGroup("w0&chunk0", "conjunction", (0, 0), {"of": ("word", "chunkz")})
    with pytest.raises(ValueError, match=r"'w0&chunk0'.*'chunkz'"):
        TokenFeaturizer(templates=[conj]).fit(X)
    # at transform
    f = TokenFeaturizer(templates="nerbio").fit(X)
    with pytest.raises(ValueError, match=r"group 'pos'.*X\[1\]"):
        f.transform([X[0], WORDS[1]])
    with pytest.raises(ValueError, match=r"dict_cell.*X\[0\]"):
        f.transform([Sentence(["a"], pos=["NN"], chunk=["O"], dict_protein=["O"])])
    # dictionary columns must be in every sentence
    odd = [Sentence(["a"], dict_x=["B"]), Sentence(["b"])]
    with pytest.raises(ValueError, match=r"dictionary.*dict_x.*X\[1\]"):
        TokenFeaturizer().fit(odd)


def test_template_validation_errors():
    def fit(groups, **kw):
        return TokenFeaturizer(templates=groups, **kw).fit(WORDS)

    with pytest.raises(ValueError, match=r"'g' \(kind 'wordz'\): unknown kind"):
        fit([FeatureGroup("g", "wordz")])
    with pytest.raises(ValueError, match=r"'g'.*unknown parameter.*'lenghts'"):
        fit([FeatureGroup("g", "prefix", params={"lenghts": (1,)})])
    with pytest.raises(ValueError, match=r"'g'.*missing required parameter 'column'"):
        fit([FeatureGroup("g", "annotation")])
    with pytest.raises(ValueError, match=r"'g'.*at least two offsets"):
        fit([FeatureGroup("g", "conjunction", (0,), {"of": "word"})])
    with pytest.raises(ValueError, match=r"'g'.*one entry per offset"):
        fit([FeatureGroup("g", "conjunction", (0, 1), {"of": ("word",)})])
    with pytest.raises(ValueError, match=r"'g'.*offsets must be \(0,\)"):
        fit([FeatureGroup("g", "word_cache", (1,), {"side": "left"})])
    with pytest.raises(ValueError, match=r"'g'.*'side'"):
        fit([FeatureGroup("g", "word_cache", (0,), {"side": "up"})])
    with pytest.raises(ValueError, match=r"'g'.*repeated offsets"):
        fit([FeatureGroup("g", "word", (0, 0))])
    with pytest.raises(ValueError, match=r"'g'.*'lengths'.*int >= 1"):
        fit([FeatureGroup("g", "suffix", params={"lengths": (0,)})])
    with pytest.raises(ValueError, match="names must be unique"):
        fit([FeatureGroup("g", "word"), FeatureGroup("g", "word_class")])
    with pytest.raises(ValueError, match=r"'a' and 'b' both produce.*w\[0\]"):
        fit([FeatureGroup("a", "word"), FeatureGroup("b", "word", (-1, 0))])
    with pytest.raises(ValueError, match=r"'h'.*needs y"):
        fit([FeatureGroup("h", "head_noun")])
    with pytest.raises(ValueError, match="unknown template preset"):
        fit("chen")
    with pytest.raises(TypeError, match="FeatureGroup"):
        fit([("w", "word")])
    with pytest.raises(ValueError, match=r"'h'.*scheme"):
        TokenFeaturizer(templates=[FeatureGroup("h", "head_noun", params={"scheme": "XYZ"})]).fit(
            WORDS, [["O"] * len(s) for s in WORDS]
        )


@pytest.mark.parametrize(
    "kwargs",
    [{"min_count": 0}, {"min_count": 1.5}, {"n_features": 0}, {"n_features": 2**31},
     {"n_features": 2.0**20}, {"lowercase": "yes"}, {"dtype": np.int32}, {"dtype": "nope"}],
)  # fmt: skip
def test_parameter_validation_in_fit(kwargs):
    f = TokenFeaturizer(**kwargs)  # __init__ does not validate
    with pytest.raises(ValueError):
        f.fit(WORDS)


@pytest.mark.parametrize(
    ("kwargs", "same_as"),
    [
        ({"min_count": np.int64(2)}, {"min_count": 2}),
        ({"min_count": np.int32(1)}, {"min_count": 1}),
        ({"n_features": np.int64(2**12)}, {"n_features": 2**12}),
        ({"n_features": np.uint32(2**10)}, {"n_features": 2**10}),
        ({"lowercase": np.bool_(True)}, {"lowercase": True}),
        ({"dtype": "float64"}, {"dtype": np.float64}),
        ({"dtype": np.dtype("float32")}, {"dtype": np.float32}),
        ({"exclude": "prefix"}, {"exclude": ("prefix",)}),
        ({"exclude": ["prefix", "suffix"]}, {"exclude": ("prefix", "suffix")}),
        ({"templates": get_preset("kazama")}, {"templates": "kazama"}),
    ],
)
def test_numpy_scalars_and_sequences_accepted(kwargs, same_as):
    a = TokenFeaturizer(**kwargs).fit_transform(WORDS)
    b = TokenFeaturizer(**same_as).fit_transform(WORDS)
    assert a.matrix.shape == b.matrix.shape and a.matrix.dtype == b.matrix.dtype
    assert (a.matrix != b.matrix).nnz == 0
    assert TokenFeaturizer(**kwargs).fit(WORDS).n_features_out_ == a.n_features


@pytest.mark.parametrize(
    ("name", "value"),
    [("min_count", True), ("min_count", False), ("min_count", np.float32(2.0)),
     ("n_features", True), ("n_features", np.float64(2**10)), ("n_features", -1),
     ("lowercase", 1), ("lowercase", None), ("dtype", None), ("dtype", np.float16),
     ("templates", 3), ("templates", None), ("exclude", 3)],
)  # fmt: skip
def test_declared_constraints_reject(name, value):
    f = TokenFeaturizer(**{name: value})  # __init__ does not validate
    with pytest.raises(ValueError, match=f"'{name}' parameter of TokenFeaturizer"):
        f.fit(WORDS)
    with pytest.raises(ValueError, match=f"'{name}' parameter of TokenFeaturizer"):
        f.fit_transform(WORDS)
    assert not hasattr(f, "groups_")
    assert TokenFeaturizer._parameter_constraints.keys() == TokenFeaturizer().get_params().keys()


def test_bad_input_errors():
    f = TokenFeaturizer()
    with pytest.raises(TypeError, match="list of sentences"):
        f.fit("IL-2 gene")
    with pytest.raises(TypeError, match=r"pass corpus\.X"):
        f.fit(load_jnlpba_sample("test"))
    with pytest.raises(TypeError, match=r"X\[1\]"):
        f.fit([["a"], "abc"])
    with pytest.raises(TypeError, match=r"X\[1\]\[0\]"):
        f.fit([["a"], [3]])
    with pytest.raises(ValueError, match=r"X\[0\]\[1\] is an empty token"):
        f.fit([["a", ""]])
    pos = FeatureGroup("pos", "annotation", params={"column": "pos"})
    with pytest.raises(TypeError, match=r"X\[1\] annotation 'pos'\[0\].*None"):
        TokenFeaturizer(templates=[pos]).fit(
            [Sentence(["a"], pos=["NN"]), Sentence(["b"], pos=[None])]
        )
    with pytest.raises(ValueError, match=r"X\[0\] annotation 'pos'\[1\]"):
        TokenFeaturizer(templates=[pos]).fit([Sentence(["a", "b"], pos=["NN", ""])])
    with pytest.raises(ValueError, match=r"y\[1\] has 1 labels but sentence 1 has 2 tokens"):
        TokenFeaturizer(templates="zhou").fit([["a"], ["b", "c"]], [["O"], ["O"]])
    with pytest.raises(ValueError, match="y has 1 label sequences but there are 2 sentences"):
        TokenFeaturizer(templates="zhou").fit([["a"], ["b", "c"]], [["O"]])


def test_input_not_modified():
    X = [list(s) for s in WORDS]
    before = copy.deepcopy(X)
    A = annotated()
    A_before = copy.deepcopy(A)
    y = [["O"] * len(s) for s in X]
    y_before = copy.deepcopy(y)
    for preset in TEMPLATE_PRESETS:
        TokenFeaturizer(templates=preset).fit(X, y).transform(X)
        TokenFeaturizer(templates=preset, n_features=2**12).fit_transform(A, y)
    assert X == before and A == A_before and y == y_before
    assert all(isinstance(s, list) for s in X)


def test_iterables_accepted():
    f = TokenFeaturizer().fit(WORDS)
    a = f.transform(WORDS)
    b = f.transform(tuple(tuple(s) for s in WORDS))
    c = f.transform(iter([np.array(s) for s in WORDS]))
    assert (a.matrix != b.matrix).nnz == 0 and (a.matrix != c.matrix).nnz == 0


# -- sklearn hygiene -----------------------------------------------------------------


@pytest.mark.parametrize(
    "check",
    [check_no_attributes_set_in_init, check_parameters_default_constructible,
     check_get_params_invariance, check_set_params],
    ids=lambda c: c.__name__,
)  # fmt: skip
def test_sklearn_checks(check):
    check("TokenFeaturizer", TokenFeaturizer())


def test_fit_sets_only_trailing_underscore_attributes():
    f = TokenFeaturizer(templates=get_preset("chan"), exclude=("prefix",), min_count=2)
    params = f.get_params()
    before = set(vars(f))
    f.fit(WORDS)
    assert f.get_params() == params
    added = set(vars(f)) - before
    public = {a for a in added if not a.startswith("_")}
    assert public and all(a.endswith("_") for a in public)


def test_not_fitted():
    with pytest.raises(NotFittedError):
        TokenFeaturizer().transform(WORDS)
    with pytest.raises(NotFittedError):
        TokenFeaturizer().get_feature_names_out()


def test_clone_and_params():
    groups = get_preset("kazama")
    f = TokenFeaturizer(templates=groups, exclude=("lwc",), min_count=3, lowercase=True)
    g = clone(f)
    assert g.get_params()["templates"] == groups
    assert g.get_params()["exclude"] == ("lwc",)
    g.set_params(min_count=1, n_features=2**16)
    assert g.min_count == 1 and g.n_features == 2**16 and f.min_count == 3
    f.fit(WORDS)
    with pytest.raises(ValueError, match="refit"):
        f.set_params(n_features=2**10).transform(WORDS)


@pytest.mark.parametrize("kwargs", [{}, {"n_features": 2**20}, {"templates": "zhou"}])
def test_pickle_and_joblib_round_trip(tmp_path, kwargs):
    corpus = load_jnlpba_sample("test")
    X, y = corpus.X[:150], corpus.y[:150]
    f = TokenFeaturizer(**kwargs).fit(X, y)
    expected = f.transform(X)
    joblib.dump(f, tmp_path / "f.joblib")
    g = joblib.load(tmp_path / "f.joblib")
    h = pickle.loads(pickle.dumps(f))
    for other in (g, h):
        out = other.transform(X)
        assert (out.matrix != expected.matrix).nnz == 0
        assert np.array_equal(out.offsets, expected.offsets)
        if f.n_features is None:
            assert np.array_equal(other.get_feature_names_out(), f.get_feature_names_out())
    # the features themselves pickle
    again = pickle.loads(pickle.dumps(expected))
    assert (again.matrix != expected.matrix).nnz == 0


def test_pickles_from_before_block_vocabularies_are_refused_clearly():
    f = TokenFeaturizer().fit(WORDS)
    old = pickle.loads(pickle.dumps(f))
    del old._vocabularies  # what a featurizer saved by an older skbioner lacks
    with pytest.raises(ValueError, match="older version of skbioner.*fit it again"):
        old.transform(WORDS)
    with pytest.raises(ValueError, match="older version"):
        old.get_feature_names_out()


def test_long_conjunction_compresses_keys():
    """A 7-word conjunction overflows 62-bit mixed-radix keys and is compressed."""
    words = [f"w{i}" for i in range(7000)]
    rng = np.random.default_rng(0)
    X = [[words[j] for j in rng.integers(0, len(words), 12)] for _ in range(300)]
    g = FeatureGroup("w7", "conjunction", tuple(range(-3, 4)), {"of": "word"})
    f, Xt = assert_matches_oracle([g], X)
    assert f._vocabularies[0].stages  # the compression path was taken
    Xt2 = f.transform(X[::-1])
    assert (Xt2.matrix != Xt[::-1].matrix).nnz == 0


_SEED_SCRIPT = """
import hashlib
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer, get_preset
c = load_jnlpba_sample("train")
X, y = c.X[:300], c.y[:300]
h = hashlib.sha256()
for groups in (get_preset("zhou", affix_min_count=3), get_preset("kazama", substring_max_length=5)):
    f = TokenFeaturizer(templates=groups)
    m = f.fit_transform(X, y).matrix
    h.update(m.indices.tobytes())
    h.update("|".join(f.get_feature_names_out()).encode())
print(h.hexdigest())
"""


def test_columns_do_not_depend_on_the_hash_seed():
    """Multi-valued channels (substrings, affix patterns) give their values in a fixed order."""
    import os
    import subprocess
    import sys

    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-c", _SEED_SCRIPT], env=env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        digests.add(proc.stdout.strip())
    assert len(digests) == 1


def test_fitted_vocabularies_are_immutable_records():
    """fit never writes into the blocks; their vocabularies are frozen records beside them."""
    import dataclasses

    from skbioner.features._engine import BlockVocabulary, Call, block_features

    groups = get_preset("chan") + [
        FeatureGroup("w7", "conjunction", tuple(range(-3, 4)), {"of": "word"})
    ]
    f = TokenFeaturizer(templates=groups, min_count=2).fit(WORDS * 3)
    vocabularies = f._vocabularies
    assert len(vocabularies) == len(f._blocks)
    base = 0
    for v in vocabularies:
        assert isinstance(v, BlockVocabulary) and v.base == base
        assert not v.kept.flags.writeable and all(not t.flags.writeable for t in v.stages)
        base += v.size
    assert base == f.n_features_out_
    with pytest.raises(dataclasses.FrozenInstanceError):
        vocabularies[0].base = 3
    with pytest.raises(ValueError):
        vocabularies[0].kept[0] = 1
    # transform and get_feature_names_out change neither the blocks nor their vocabularies
    before = pickle.dumps((f._blocks, f._vocabularies))
    f.transform(WORDS)
    f.get_feature_names_out()
    assert pickle.dumps((f._blocks, f._vocabularies)) == before
    # a block's attributes are the same after a fit call of block_features
    from skbioner.features._corpus import Corpus

    call = Call(Corpus(WORDS), {}, "fit", margin=3)
    for block in f._blocks:
        state = pickle.dumps(vars(block))
        _, fitted = block_features(block, call, min_count=1, base=0)
        assert pickle.dumps(vars(block)) == state and isinstance(fitted, BlockVocabulary)
    # unpickled records are frozen too
    loaded = pickle.loads(pickle.dumps(f))
    assert all(not v.kept.flags.writeable for v in loaded._vocabularies)
    assert (loaded.transform(WORDS).matrix != f.transform(WORDS).matrix).nnz == 0


@pytest.mark.slow
def test_full_training_set_vocabulary_and_hashing():
    path = data_path("jnlpba", "train.iob2")
    from skbioner.io import read_jnlpba

    corpus = read_jnlpba(path)
    f = TokenFeaturizer()
    Xt = f.fit_transform(corpus.X)
    assert Xt.n_tokens == 492806 and len(Xt) == len(corpus.X)
    assert Xt.matrix.nnz > 40 * Xt.n_tokens * 0.6
    sub = corpus.X[:500]
    assert (f.transform(sub).matrix != Xt[:500].matrix).nnz == 0
    h = TokenFeaturizer(n_features=2**20).fit_transform(corpus.X)
    # few collisions at 2**20: at most 1% of the stored entries merged
    assert h.matrix.nnz >= 0.99 * Xt.matrix.nnz
    # reference on a sample of sentences, fitted on the whole corpus
    expected = Oracle("chan").fit(corpus.X).features(sub)
    assert active_names(f, Xt[:500]) == expected


def test_cutoff_keeps_the_features_of_rare_types():
    X = [["the", "Zorbex", "binds"]] + [["the", "cells", "bind"]] * 30
    y = [["O", "B-Rare", "O"]] + [["O", "B-Cell", "O"]] * 30
    kept = TokenFeaturizer(min_count=3).fit(X, y).get_feature_names_out()
    assert "w[0]=Zorbex" in kept and "suf3[0]=bex" in kept
    cut = TokenFeaturizer(min_count=3, rare_types=0).fit(X, y).get_feature_names_out()
    assert "w[0]=Zorbex" not in cut
    # without labels (or for a type with enough mentions) the cutoff applies as before
    assert "w[0]=Zorbex" not in TokenFeaturizer(min_count=3).fit(X).get_feature_names_out()
    assert "w[0]=Zorbex" not in TokenFeaturizer(min_count=3, rare_types=1).fit(
        X, y).get_feature_names_out()
