"""DictionaryMatcher: leftmost-longest dictionary matches as B/I/O annotation columns."""

import copy
import pickle

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner import Sentence
from skbioner.annotate import DictionaryMatcher
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.io import CorpusFormatError


def write(tmp_path, name, text, encoding="utf-8"):
    p = tmp_path / name
    p.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return p


def open_matcher(tmp_path, text, name="genes.txt", **kw):
    path = write(tmp_path, name, text)
    return DictionaryMatcher(dictionaries=[path], closed=False, **kw).fit([["x"]])


def col(sentence, name):
    return " ".join(sentence.column(name))


# -- matching ----------------------------------------------------------------


def test_longest_match_with_overlapping_entries(tmp_path):
    m = open_matcher(tmp_path, "IL-2\tprotein\nIL-2 receptor\tprotein\nreceptor alpha\tprotein\n")
    assert m.annotation_names_ == ("dict_genes_protein",)
    X = [
        ["the", "IL-2", "receptor", "alpha", "chain"],
        ["IL-2", "and", "receptor", "alpha"],
        ["IL-2", "IL-2", "receptor"],
    ]
    out = m.transform(X)
    assert col(out[0], "dict_genes_protein") == "O B I O O"
    assert col(out[1], "dict_genes_protein") == "B O B I"
    assert col(out[2], "dict_genes_protein") == "B B I"


def test_nf_kappa_b_versus_kappa_b_one_selection_per_dictionary(tmp_path):
    m = open_matcher(tmp_path, "NF kappa B\tprotein\nkappa B\tDNA\n")
    assert m.annotation_names_ == ("dict_genes_DNA", "dict_genes_protein")
    s = m.transform([["NF", "kappa", "B", "binds", "kappa", "B", "sites"]])[0]
    assert col(s, "dict_genes_protein") == "B I I O O O O"
    # the shorter DNA match inside the protein match is not a longest match
    assert col(s, "dict_genes_DNA") == "O O O O B I O"


def test_dictionaries_are_matched_independently(tmp_path):
    a = write(tmp_path, "a.txt", "NF kappa B\n")
    b = write(tmp_path, "b.txt", "kappa B\n")
    m = DictionaryMatcher(dictionaries=[a, b], closed=False).fit([["x"]])
    s = m.transform([["NF", "kappa", "B"]])[0]
    assert col(s, "dict_a") == "B I I"
    assert col(s, "dict_b") == "O B I"


def test_leftmost_longest_choice(tmp_path):
    m = open_matcher(tmp_path, "a b\nb c d\nc d\nd\n")
    (s,) = m.transform([["a", "b", "c", "d", "b", "c", "d"]])
    # leftmost first ("a b", not the longer "b c d"), then the longest at each start
    assert col(s, "dict_genes") == "B I B I B I I"


def test_entry_with_several_classes_marks_each(tmp_path):
    m = open_matcher(tmp_path, "IL-2\tprotein\nIL-2\tDNA\nIL-2 gene\tDNA\n")
    s = m.transform([["IL-2", "gene", "IL-2"]])[0]
    assert col(s, "dict_genes_DNA") == "B I B"
    assert col(s, "dict_genes_protein") == "O O B"


def test_matches_do_not_cross_sentences(tmp_path):
    m = open_matcher(tmp_path, "a b\n")
    out = m.transform([["x", "a"], [], ["b", "a", "b"], ["a"], ["b"]])
    assert [col(s, "dict_genes") for s in out] == ["O O", "", "O B I", "O", "O"]


def test_case_and_normalization_options(tmp_path):
    text = "IL-2 receptor\tprotein\n"
    X = [["il-2", "RECEPTOR"], ["IL-5", "receptor"], ["IL2", "receptor"], ["IL-2", "receptor"]]
    cases = {
        (): ["B I", "O O", "O O", "B I"],
        (("lowercase", False),): ["O O", "O O", "O O", "B I"],
        (("normalize_digits", True),): ["B I", "B I", "O O", "B I"],
        (("strip_punct", True),): ["B I", "O O", "B I", "B I"],
    }
    for options, expected in cases.items():
        m = open_matcher(tmp_path, text, **dict(options))
        assert [col(s, "dict_genes_protein") for s in m.transform(X)] == expected, options


def test_strip_punct_keeps_punctuation_tokens(tmp_path):
    m = open_matcher(tmp_path, "( TBP )\n", strip_punct=True)
    s = m.transform([["(", "T-B-P", ")", "TBP"]])[0]
    assert col(s, "dict_genes") == "B I I O"


def test_separator_inside_a_token_does_not_shift_matches(tmp_path):
    m = open_matcher(tmp_path, "a b\n")
    s = m.transform([["a\x00b", "a", "b"]])[0]
    assert col(s, "dict_genes") == "O B I"


# -- closed dictionary -------------------------------------------------------

X_TRAIN = [
    ["IL-2", "gene", "expression", "in", "T", "cells"],
    ["The", "IL-2", "gene", "binds", "NF-kappa", "B"],
    ["NF-kappa", "B", "in", "Jurkat", "cells"],
]
Y_TRAIN = [
    ["B-DNA", "I-DNA", "O", "O", "B-cell_type", "I-cell_type"],
    ["O", "B-DNA", "I-DNA", "O", "B-protein", "I-protein"],
    ["B-protein", "I-protein", "O", "B-cell_line", "I-cell_line"],
]


def test_closed_dictionary_from_y():
    m = DictionaryMatcher().fit(X_TRAIN, Y_TRAIN)
    assert m.dictionary_names_ == ("closed",)
    assert m.annotation_names_ == (
        "dict_closed_DNA",
        "dict_closed_cell_line",
        "dict_closed_cell_type",
        "dict_closed_protein",
    )
    assert m.n_entries_ == {"closed": 4}
    (s,) = m.transform([["il-2", "GENE", "and", "nf-kappa", "b", "in", "t", "cells"]])
    assert col(s, "dict_closed_DNA") == "B I O O O O O O"
    assert col(s, "dict_closed_protein") == "O O O B I O O O"
    assert col(s, "dict_closed_cell_type") == "O O O O O O B I"
    assert col(s, "dict_closed_cell_line") == "O O O O O O O O"


def test_closed_min_count_and_scheme():
    m = DictionaryMatcher(min_count=2).fit(X_TRAIN, Y_TRAIN)
    assert m.annotation_names_ == ("dict_closed_DNA", "dict_closed_protein")
    y_iobes = [
        ["B-DNA", "E-DNA", "O", "O", "B-cell_type", "E-cell_type"],
        ["O", "B-DNA", "E-DNA", "O", "B-protein", "E-protein"],
        ["B-protein", "E-protein", "O", "B-cell_line", "E-cell_line"],
    ]
    a = DictionaryMatcher(scheme="IOBES").fit(X_TRAIN, y_iobes)
    b = DictionaryMatcher().fit(X_TRAIN, Y_TRAIN)
    assert a.transform(X_TRAIN) == b.transform(X_TRAIN)


def test_closed_needs_y_and_some_dictionary():
    with pytest.raises(ValueError, match="fit needs y"):
        DictionaryMatcher().fit(X_TRAIN)
    with pytest.raises(ValueError, match="no dictionary"):
        DictionaryMatcher(closed=False).fit(X_TRAIN)
    with pytest.raises(ValueError, match="labels"):
        DictionaryMatcher().fit(X_TRAIN, [y[:-1] for y in Y_TRAIN])


def test_closed_without_entities_adds_no_columns():
    m = DictionaryMatcher().fit([["a", "b"]], [["O", "O"]])
    assert m.annotation_names_ == ()
    assert m.transform([["a"]]) == [Sentence(["a"])]


# -- open dictionaries -------------------------------------------------------


def test_open_dictionary_file_format(tmp_path):
    text = (
        "\ufeff# gene and protein names\n"
        "\n"
        "IL-2 receptor\tprotein\r\n"
        "  IL-2   gene  \tDNA\n"
        "   # indented comment\n"
        "TATA box\n"
        "IL-2 receptor\tprotein\n"  # duplicate
        "IL-2\tprotein\n"
    )
    m = open_matcher(tmp_path, text)
    assert m.annotation_names_ == ("dict_genes", "dict_genes_DNA", "dict_genes_protein")
    assert m.n_entries_ == {"genes": 4}
    s = m.transform([["IL-2", "receptor", "IL-2", "gene", "TATA", "box"]])[0]
    assert col(s, "dict_genes_protein") == "B I O O O O"
    assert col(s, "dict_genes_DNA") == "O O B I O O"
    assert col(s, "dict_genes") == "O O O O B I"


def test_open_and_closed_together_and_names(tmp_path):
    g = write(tmp_path, "g.txt", "kappa B\tprotein\n")
    c = write(tmp_path, "cells.lst", "Jurkat cells\n")
    m = DictionaryMatcher(dictionaries={"genes": g, "cl": c}).fit(X_TRAIN, Y_TRAIN)
    assert m.dictionary_names_ == ("closed", "genes", "cl")
    assert m.annotation_names_[-2:] == ("dict_genes_protein", "dict_cl")
    one = DictionaryMatcher(dictionaries=str(c), closed=False).fit(X_TRAIN)
    assert one.annotation_names_ == ("dict_cells",)


def test_latin1_dictionary(tmp_path):
    p = write(tmp_path, "d.txt", "caf\xe9 au lait\n", encoding="latin-1")
    m = DictionaryMatcher(dictionaries=[p], closed=False, encoding="latin-1").fit([["x"]])
    assert col(m.transform([["café", "au", "lait"]])[0], "dict_d") == "B I I"


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        ("IL-2\tprotein\tx\n", 1, "3 tab-separated fields"),
        ("IL-2\n\n\tprotein\n", 3, "empty entry"),
        ("# c\n   \tprotein\n", 2, "empty entry"),
        ("IL-2\nIL-3\t \n", 2, "empty class"),
        ("IL-2\tcell line\n", 1, "whitespace"),
        (b"IL-2\nIL-3\n\xff\xfe\n", 3, "cannot decode"),
        ("# only comments\n\n", None, "no entries"),
        ("", None, "no entries"),
    ],
)
def test_bad_dictionary_lines(tmp_path, content, line, message):
    path = write(tmp_path, "bad.txt", content)
    with pytest.raises(CorpusFormatError, match=message) as info:
        DictionaryMatcher(dictionaries=[path], closed=False).fit([["x"]])
    assert info.value.path == str(path)
    assert info.value.line == line


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"dictionaries": {"closed": "x.txt"}}, ValueError, "taken by the closed"),
        ({"dictionaries": ["a/g.txt", "b/g.txt"]}, ValueError, "same name"),
        ({"dictionaries": {"": "x.txt"}}, ValueError, "non-empty"),
        ({"dictionaries": [3]}, TypeError, "path"),
        ({"dictionaries": 3}, TypeError, "dictionaries must be"),
        ({"min_count": 0}, ValueError, "min_count"),
        ({"lowercase": "yes"}, ValueError, "lowercase"),
        ({"scheme": "XYZ"}, ValueError, "XYZ"),
    ],
)
def test_invalid_parameters(kwargs, error, message):
    with pytest.raises(error, match=message):
        DictionaryMatcher(**kwargs).fit(X_TRAIN, Y_TRAIN)


@pytest.mark.parametrize(
    ("kwargs", "same_as"),
    [
        ({"min_count": np.int64(2)}, {"min_count": 2}),
        ({"min_count": np.uint8(1)}, {"min_count": 1}),
        ({"closed": np.bool_(True), "lowercase": np.bool_(False)}, {"lowercase": False}),
        ({"strip_punct": np.True_, "normalize_digits": np.True_},
         {"strip_punct": True, "normalize_digits": True}),
        ({"scheme": "iob2"}, {}),
    ],
)  # fmt: skip
def test_numpy_scalars_accepted_like_python_ones(kwargs, same_as):
    got = DictionaryMatcher(**kwargs).fit(X_TRAIN, Y_TRAIN)
    expected = DictionaryMatcher(**same_as).fit(X_TRAIN, Y_TRAIN)
    assert got.annotation_names_ == expected.annotation_names_
    assert got.transform(X_TRAIN) == expected.transform(X_TRAIN)


@pytest.mark.parametrize(
    ("name", "value"),
    [("min_count", True), ("min_count", np.float64(2.0)), ("min_count", -1),
     ("closed", 1), ("lowercase", None), ("normalize_digits", "no"), ("strip_punct", 0),
     ("scheme", None), ("encoding", 8)],
)  # fmt: skip
def test_declared_constraints_reject(name, value):
    m = DictionaryMatcher(**{name: value})  # __init__ does not validate
    with pytest.raises(ValueError, match=f"'{name}' parameter of DictionaryMatcher"):
        m.fit(X_TRAIN, Y_TRAIN)
    with pytest.raises(ValueError, match=f"'{name}' parameter"):
        m.fit_transform(X_TRAIN, Y_TRAIN)
    declared = DictionaryMatcher._parameter_constraints.keys()
    assert declared == DictionaryMatcher().get_params().keys()


def test_column_name_collision(tmp_path):
    a = write(tmp_path, "a.txt", "x\tb_c\n")
    b = write(tmp_path, "a_b.txt", "y\tc\n")
    with pytest.raises(ValueError, match="dict_a_b_c"):
        DictionaryMatcher(dictionaries=[a, b], closed=False).fit([["x"]])


# -- output contract ---------------------------------------------------------


def test_fixed_output_columns_and_input_unchanged(tmp_path):
    g = write(tmp_path, "genes.txt", "IL-2\tprotein\nTATA box\n")
    m = DictionaryMatcher(dictionaries=[g]).fit(X_TRAIN, Y_TRAIN)
    X = [Sentence(["nothing", "here"], pos=["NN", "RB"], dict_genes=["?", "?"]), ["b"], []]
    before = copy.deepcopy(X)
    out = m.transform(X)
    assert X == before
    for s in out:
        assert set(s.annotations) >= set(m.annotation_names_)
    assert out[0].column("pos") == ("NN", "RB")
    assert out[0].column("dict_genes") == ("O", "O")  # replaced
    assert all(set(out[0].column(n)) == {"O"} for n in m.annotation_names_)
    assert m.transform([]) == []


def test_not_fitted_and_sklearn_checks():
    with pytest.raises(NotFittedError):
        DictionaryMatcher().transform([["a"]])
    for check in (
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_get_params_invariance,
        check_set_params,
    ):
        check("DictionaryMatcher", DictionaryMatcher())
    m = DictionaryMatcher(min_count=1)
    params = m.get_params()
    m.fit(X_TRAIN, Y_TRAIN)
    assert m.get_params() == params
    public = {k for k in vars(m) if not k.startswith("_")} - set(params)
    assert public == {"annotation_names_", "dictionary_names_", "n_entries_"}


def test_pickle_joblib_clone(tmp_path):
    g = write(tmp_path, "genes.txt", "IL-2 receptor\tprotein\n")
    m = DictionaryMatcher(dictionaries=[g]).fit(X_TRAIN, Y_TRAIN)
    X = X_TRAIN + [["IL-2", "receptor", "and", "NF-kappa", "B"]]
    expected = m.transform(X)  # builds the automaton
    assert "_ac" in vars(m)
    state = m.__getstate__()
    assert "_ac" not in state and "_ac" in vars(m)
    g.unlink()  # the fitted matcher does not read the files again
    loaded = pickle.loads(pickle.dumps(m))
    assert "_ac" not in vars(loaded)
    assert loaded.transform(X) == expected
    joblib.dump(m, tmp_path / "m.joblib")
    assert joblib.load(tmp_path / "m.joblib").transform(X) == expected
    assert copy.deepcopy(m).transform(X) == expected
    c = clone(m)
    assert not hasattr(c, "annotation_names_") and c.get_params() == m.get_params()


def test_refit_rebuilds_the_automaton():
    m = DictionaryMatcher().fit([["a", "b"]], [["B-X", "I-X"]])
    assert col(m.transform([["a", "b"]])[0], "dict_closed_X") == "B I"
    m.set_params(lowercase=False).fit([["c"]], [["B-Y"]])
    assert m.annotation_names_ == ("dict_closed_Y",)
    assert col(m.transform([["a", "b", "c", "C"]])[0], "dict_closed_Y") == "O O B O"


def test_pipeline_with_token_featurizer():
    corpus = load_jnlpba_sample()
    X, y = corpus.X[:300], corpus.y[:300]
    pipe = make_pipeline(DictionaryMatcher(), TokenFeaturizer(templates="chan")).fit(X, y)
    featurizer = pipe[-1]
    assert featurizer.dictionary_columns_["dictionary"] == tuple(sorted(pipe[0].annotation_names_))
    names = featurizer.get_feature_names_out()
    assert "dict_closed_protein[0]=B" in set(names)
    Xt = pipe.transform(X)
    lo, hi = featurizer.feature_ranges_["dictionary"]
    assert hi > lo and Xt.matrix[:, lo:hi].nnz == Xt.matrix.shape[0] * len(
        pipe[0].annotation_names_
    )


# -- against a brute-force reference ------------------------------------------


def reference(sentence, entries, lowercase):
    """Per dictionary: scan left to right, take the longest entry at each free start."""
    norm = [w.lower() if lowercase else w for w in sentence]
    out = {}
    for dname, pairs in entries.items():
        classes = {}
        for toks, c in pairs:
            key = tuple(t.lower() if lowercase else t for t in toks)
            classes.setdefault(key, set()).add(c)
            name = f"dict_{dname}" if c is None else f"dict_{dname}_{c}"
            out.setdefault(name, ["O"] * len(sentence))
        i = 0
        while i < len(norm):
            best = max(
                (k for k in classes if tuple(norm[i : i + len(k)]) == k), key=len, default=None
            )
            if best is None:
                i += 1
                continue
            for c in classes[best]:
                name = f"dict_{dname}" if c is None else f"dict_{dname}_{c}"
                out[name][i : i + len(best)] = ["B"] + ["I"] * (len(best) - 1)
            i += len(best)
    return out


@pytest.mark.parametrize("lowercase", [True, False])
def test_random_against_reference(tmp_path, rng, lowercase):
    vocab = np.array(["a", "b", "A", "c", "d"])
    entries, paths = {}, []
    for dname in ("one", "two"):
        pairs = set()
        for _ in range(8):
            toks = tuple(rng.choice(vocab, size=rng.integers(1, 4)))
            pairs.add((toks, [None, "x", "y"][rng.integers(3)]))
        entries[dname] = sorted(pairs, key=str)
        lines = [" ".join(t) + ("" if c is None else f"\t{c}") for t, c in entries[dname]]
        paths.append(write(tmp_path, f"{dname}.txt", "\n".join(lines) + "\n"))
    m = DictionaryMatcher(dictionaries=paths, closed=False, lowercase=lowercase).fit([["x"]])
    X = [list(rng.choice(vocab, size=rng.integers(0, 12))) for _ in range(200)]
    for s, got in zip(X, m.transform(X)):
        expected = reference(s, entries, lowercase)
        assert set(expected) == set(m.annotation_names_)
        for name, labels in expected.items():
            assert got.column(name) == tuple(labels), (s, name)


def test_jackknife_annotates_training_sentences_out_of_fold():
    from skbioner import Sentence

    X = [Sentence(["IL-2", "binds", "Zeta9"], doc_id="a"), Sentence(["IL-2", "here"], doc_id="b"),
         Sentence(["IL-2", "again"], doc_id="c")]
    y = [["B-protein", "O", "B-DNA"], ["B-protein", "O"], ["B-protein", "O"]]
    m = DictionaryMatcher(jackknife=3)
    out = m.fit_transform(X, y)
    # "Zeta9" (DNA) is only in document a: out of fold, nothing marks it there
    assert out[0].column("dict_closed_DNA") == ("O", "O", "O")
    assert out[0].column("dict_closed_protein") == ("B", "O", "O")
    # the fitted matcher knows every training entry
    assert m.transform(X[:1])[0].column("dict_closed_DNA") == ("O", "O", "B")
    # every sentence has every column
    assert all(s.has("dict_closed_DNA") for s in out)
    assert DictionaryMatcher().fit_transform(X, y)[0].column("dict_closed_DNA") == ("O", "O", "B")
