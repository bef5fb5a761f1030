"""LexiconMatcher: the compiled matcher against its pure-Python oracle, the file format,
persistence, and the lexicons read as features."""

from __future__ import annotations

import lzma
import random

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.annotate import LexiconMatcher, normalize_name, read_lexicon
from skbioner.annotate._lexicon_kernel import MAX_TOKENS, build_table, match_tokens, name_key
from skbioner.io import CorpusFormatError, load_model, save_model
from tests.annotate.lexicon_oracle import match_reference


def _kernel(sentences, names, flags=None):
    """match_tokens over normalized token lists, in match_reference's output form."""
    keys = list(names)
    n_types = 1 + max(k if k >= 0 else -1 - k for ts in names.values() for k in ts)
    masks = np.array([sum(1 << (k if k >= 0 else 31 - k) for k in names[key]) for key in keys],
                     dtype=np.uint64)
    table = build_table(keys, masks)
    words = sorted({w for s in sentences for w in s})
    index = {w: i for i, w in enumerate(words)}
    ids = np.array([index[w] for s in sentences for w in s], dtype=np.int64)
    offsets = np.cumsum([0] + [len(s) for s in sentences])
    flag_of = np.array([(flags or {}).get(w, 0) for w in words], dtype=np.uint8)
    codes = match_tokens(ids, words, flag_of, offsets, table, n_types)
    out = []
    for a, b in zip(offsets[:-1], offsets[1:]):
        out.append({k: ["OBIES"[c] for c in codes[a:b, k]] for k in range(n_types)})
    return out


@pytest.mark.parametrize("seed", range(6))
def test_kernel_matches_the_oracle(seed):
    rng = random.Random(seed)
    alphabet = "abs"  # few letters: many overlaps, concatenations and plural s
    vocab = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(30)]
    sentences = [[rng.choice(vocab) for _ in range(rng.randint(0, 25))] for _ in range(80)]
    names = {}
    for _ in range(60):  # names made of runs of tokens, and random strings
        s = rng.choice([s for s in sentences if s] or [["ab"]])
        a = rng.randrange(len(s))
        run = "".join(s[a:a + rng.randint(1, 4)])
        run = run if rng.random() < 0.7 else "".join(rng.choice(alphabet)
                                                      for _ in range(rng.randint(1, 6)))
        key = name_key(run)
        if key:  # -1 - k: type k, needing a capital letter in the run
            names.setdefault(key, set()).add(rng.randrange(3) * rng.choice([1, -1]) - 1)
    flags = {w: rng.choice([0, 0, 1, 2, 3]) for s in sentences for w in s}
    assert _kernel(sentences, names, flags) == match_reference(sentences, names, flags)


def test_longest_leftmost_per_type_and_positions():
    names = {"il2": {0}, "il2receptor": {0}, "receptoralpha": {0}, "alpha": {1}, "cell": {1}}
    sents = [["il", "2", "receptor", "alpha", "cells"]]
    out = _kernel(sents, names)[0]
    assert out[0] == ["B", "I", "E", "O", "O"]  # IL 2 receptor, then nothing for type 0
    assert out[1] == ["O", "O", "O", "S", "S"]  # alpha; cells is cell + plural s
    assert _kernel(sents, names) == match_reference(sents, names)


def test_stop_words_and_symbols():
    names = {"isa": {0}, "cell": {-1}, "vitamina": {1}}  # CELL: a symbol (type 0, capitals)
    sents = [["is", "a", "cell", "vitamin", "a", "cell"]]
    flags = {"is": 2, "a": 2, "cell": 0}
    out = _kernel(sents, names, flags)[0]
    assert out[0] == ["O"] * 6 and out[1] == ["O"] * 6  # no run ends or starts on "is"/"a"
    flags = {"is": 2, "cell": 1}  # "Cell"; "a" is "A" here, no stop word
    out = _kernel(sents, names, flags)[0]
    assert out[0] == ["O", "O", "S", "O", "O", "S"] and out[1][3:5] == ["B", "E"]
    assert _kernel(sents, names, flags) == match_reference(sents, names, flags)


def test_runs_longer_than_the_limit_are_not_matched():
    names = {"a" * (MAX_TOKENS + 1): {0}, "a" * MAX_TOKENS: {0}}
    out = _kernel([["a"] * (MAX_TOKENS + 1)], names)[0][0]
    assert out == ["B"] + ["I"] * (MAX_TOKENS - 2) + ["E", "O"]


def test_normalization_meets_variants():
    forms = ["NF-kappa B", "NF-kappaB", "NF-κB", "nf kappa b", "NF-ΚB"]
    assert {normalize_name(f) for f in forms} == {"nfkappab"}
    assert normalize_name("Crohn’s disease") == "crohnsdisease"
    assert normalize_name("TNF-α") == normalize_name("TNF alpha") == "tnfalpha"
    assert name_key("cells") == "cell" and name_key("gas") == "gas"


@pytest.fixture
def lexicon_file(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("# my names\nIL-2 receptor\tprotein\tX:1\nHeLa\tcell_line\nT cells\t"
                    "cell_type\tX:2\nzorblin\tprotein\n", encoding="utf-8")
    return path


def test_one_column_holds_every_type_in_type_order(lexicon_file):
    from skbioner.annotate._lexicon import _position_values

    codes = np.array([[0, 0, 0], [1, 0, 4], [3, 2, 0], [0, 0, 0]], dtype=np.uint8)
    assert _position_values(codes, ("a", "b", "c")) == ["O", "a:B c:S", "a:E b:I", "O"]
    wide = np.zeros((2, 30), dtype=np.uint8)  # more types than one 64-bit key holds
    wide[1, [0, 29]] = [4, 1]
    types = tuple(f"t{k}" for k in range(30))
    assert _position_values(wide, types) == ["O", "t0:S t29:B"]


def test_user_lexicon_columns(lexicon_file):
    m = LexiconMatcher(str(lexicon_file)).fit()
    assert m.types_ == ("cell_line", "cell_type", "protein")
    assert m.annotation_names_ == ("lex",)
    s = m.transform([["IL2", "Receptors", "in", "HeLa", "T-cells"], []])
    assert s[0].column("lex") == ("protein:B", "protein:E", "O", "cell_line:S", "cell_type:S")
    assert s[1].column("lex") == ()
    only = LexiconMatcher(str(lexicon_file), types=["protein"]).fit()
    assert only.transform([["HeLa", "IL2", "receptor"]])[0].column("lex") == (
        "O", "protein:B", "protein:E")
    with pytest.raises(ValueError, match="not in the lexicon"):
        LexiconMatcher(str(lexicon_file), types=["gene"]).fit()


def test_user_lexicon_travels_with_the_model(lexicon_file, tmp_path):
    m = LexiconMatcher(str(lexicon_file)).fit()
    X = [Sentence(["zorblin", "binds", "HeLa"], doc_id="d1")]
    before = m.transform(X)
    save_model(m, tmp_path / "m.skops")
    lexicon_file.unlink()
    again = load_model(tmp_path / "m.skops").transform(X)
    assert again == before and again[0].doc_id == "d1"


@pytest.mark.parametrize("text, line, message", [
    ("IL-2\n", 1, "expected 'name<TAB>type'"),
    ("a\tgene\nb\tgene\tx\ty\n", 2, "expected 'name<TAB>type'"),
    ("# only a comment\n", None, "no entries"),
    ("a\tsome type\n", 1, "contains whitespace"),
])
def test_malformed_lexicon_names_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=message) as info:
        read_lexicon(path)
    assert str(path) in str(info.value)
    if line is not None:
        assert f":{line}" in str(info.value)


def test_compressed_lexicon_and_undecodable_line(tmp_path):
    path = tmp_path / "names.tsv.xz"
    path.write_bytes(lzma.compress(b"p53\tgene\tHGNC:11998\n"))
    assert read_lexicon(path) == (["p53"], ["gene"], ["HGNC:11998"])
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"a\tgene\n\xff\xfe\tgene\n")
    with pytest.raises(CorpusFormatError, match=r"bad.tsv:2"):
        read_lexicon(bad)


def test_bundled_lexicons_mark_real_names():
    m = LexiconMatcher(types=["gene", "cell_line", "disease", "chemical", "species"]).fit()
    s = m.transform([["NF-kappaB", "in", "HeLa", "cells", "with", "breast", "cancer",
                      "after", "cisplatin", "in", "Homo", "sapiens"]])[0]
    lex = [dict(v.split(":") for v in x.split()) if x != "O" else {} for x in s.column("lex")]
    assert lex[0]["gene"] == "S"
    assert [lex[i].get("cell_line") for i in (2, 3)] == ["B", "E"]  # a MeSH cell line
    assert [lex[i].get("disease") for i in (5, 6)] == ["B", "E"]
    assert lex[8]["chemical"] == "S"
    assert [lex[i].get("species") for i in (10, 11)] == ["B", "E"]
    assert lex[1] == lex[4] == {}  # "in", "with": stop words
    assert set(m.n_names_) == set(m.types_) and min(m.n_names_.values()) > 1000


def test_a_model_of_other_bundled_lexicons_is_refused(tmp_path):
    m = LexiconMatcher(types=["gene"]).fit()
    m.lexicon_digest_ = "0" * 64
    m.__dict__.pop("_table", None)
    with pytest.raises(ValueError, match="other bundled lexicons"):
        m.transform([["p53"]])


def test_lexicon_features_let_a_tagger_find_unseen_names(lexicon_file):
    """Names never seen in training are found through the lexicon column alone."""
    from skbioner.pipelines import make_tagger

    rng = random.Random(0)
    # genes and other words of one shape: nothing but the lexicon tells them apart
    pool = list(dict.fromkeys("".join(rng.choice("bcdfgklmnprstvz") for _ in range(5))
                              for _ in range(700)))
    genes, others = pool[:200], pool[200:600]
    path = lexicon_file.with_name("genes.tsv")
    path.write_text("".join(f"{g}\tgene\n" for g in genes), encoding="utf-8")

    def corpus(names, words):
        X, y = [], []
        for _ in range(300):
            s = [rng.choice(words) for _ in range(6)]
            lab = ["O"] * 6
            k = rng.randrange(6)
            s[k], lab[k] = rng.choice(names), "B-gene"
            X.append(s)
            y.append(lab)
        return X, y

    X, y = corpus(genes[:100], others[:200])
    Xt, yt = corpus(genes[100:], others[200:])  # words the tagger never saw
    params = {"max_iter": 3, "calibrate": False}
    plain = make_tagger(model_params=params, n_jobs=1).fit(X, y)
    lexical = make_tagger(model_params=params, lexicons=str(path), n_jobs=1).fit(X, y)
    assert lexical.score(Xt, yt) > 0.95
    assert plain.score(Xt, yt) < lexical.score(Xt, yt) - 0.3


def test_compiled_lexicons_are_cached_and_a_damaged_cache_is_rebuilt(lexicon_file, tmp_path,
                                                                     monkeypatch):
    from skbioner.annotate import _lexicon

    monkeypatch.setenv("SKBIONER_CACHE", str(tmp_path / "cache"))
    X = [["IL-2", "receptor", "in", "HeLa"]]
    first = LexiconMatcher(str(lexicon_file)).fit()
    [cached] = (tmp_path / "cache").glob("lexicon-*.npz")
    calls = []
    monkeypatch.setattr(_lexicon, "build_table",
                        lambda *a: calls.append(a) or _lexicon_build(*a))
    _lexicon._load.cache_clear()
    assert LexiconMatcher(str(lexicon_file)).fit().transform(X) == first.transform(X)
    assert not calls  # read from the cache
    cached.write_bytes(b"not an npz file")
    _lexicon._load.cache_clear()
    assert LexiconMatcher(str(lexicon_file)).fit().transform(X) == first.transform(X)
    assert len(calls) == 1  # compiled again, and the cache replaced
    assert cached.read_bytes()[:2] == b"PK"


_lexicon_build = build_table



@pytest.mark.parametrize("model", ["online-crf", "cascaded", "crfsuite", "nerbio", "hmm-svm",
                                   "pairwise-svm"])
def test_every_preset_reads_the_lexicon_columns(model):
    from skbioner.features import get_preset
    from skbioner.pipelines import make_tagger

    tagger = make_tagger(model, lexicons="bundled", lexicon_types="gene")
    steps = dict(tagger.steps)
    assert isinstance(steps["lexicons"], LexiconMatcher)
    templates = steps["features"].templates
    groups = get_preset(templates) if isinstance(templates, str) else templates
    assert any(g.kind == "lexicon" for g in groups)


def test_a_lexicon_over_the_size_bound_is_refused_while_read(tmp_path, monkeypatch):
    from skbioner.annotate import _lexicon

    path = tmp_path / "big.tsv"
    path.write_text("".join(f"name{i}\tgene\n" for i in range(1000)), encoding="utf-8")
    monkeypatch.setattr(_lexicon, "MAX_LEXICON_BYTES", 5000)
    with pytest.raises(CorpusFormatError, match="larger than 5,000 characters") as info:
        read_lexicon(path)
    assert "big.tsv:" in str(info.value)


# -- the training names: a closed dictionary ------------------------------------------------


def _docs():
    """Three documents; ``Foxp3`` is a protein in the first only."""
    X = [Sentence(["Foxp3", "binds", "IL-2", "promoter"], doc_id="d1"),
         Sentence(["IL-2", "is", "made"], doc_id="d2"),
         Sentence(["the", "IL-2", "promoter", "and", "Foxp3"], doc_id="d3")]
    y = [["B-protein", "O", "B-DNA", "I-DNA"], ["B-protein", "O", "O"],
         ["O", "B-DNA", "I-DNA", "O", "O"]]
    return X, y


def test_training_names_are_typed_by_their_class():
    X, y = _docs()
    m = LexiconMatcher("training", column="dict_closed").fit(X, y)
    assert m.types_ == ("DNA", "protein") and m.annotation_names_ == ("dict_closed",)
    assert m.n_names_ == {"DNA": 1, "protein": 2}
    out = m.transform([Sentence(["Foxp3", "and", "IL-2", "promoter", "here"])])[0]
    assert out.column("dict_closed") == ("protein:S", "O", "DNA:B protein:S", "DNA:E", "O")
    only = LexiconMatcher("training", types=["DNA"]).fit(X, y)
    assert only.types_ == ("DNA",)
    assert only.transform([["IL-2", "promoter"]])[0].column("lex") == ("DNA:B", "DNA:E")


def test_training_names_out_of_fold():
    X, y = _docs()
    m = LexiconMatcher("training", column="dict_closed", jackknife=3)
    oof = m.fit_transform(X, y)
    # d1's Foxp3 is named in d1 alone: out of fold it is unknown there, known in d3
    assert oof[0].column("dict_closed")[0] == "O"
    assert oof[2].column("dict_closed")[4] == "protein:S"
    # the full names tag new text (and transform of the training text sees them all)
    assert m.transform(X)[0].column("dict_closed")[0] == "protein:S"
    # without jackknife, fit_transform is fit + transform
    plain = LexiconMatcher("training", column="dict_closed").fit_transform(X, y)
    assert plain[0].column("dict_closed")[0] == "protein:S"


def test_training_names_need_labels_and_travel_with_the_model(tmp_path):
    X, y = _docs()
    with pytest.raises(ValueError, match="needs X and y"):
        LexiconMatcher("training").fit(X)
    m = LexiconMatcher("training").fit(X, y)
    save_model(m, tmp_path / "m.skops")
    back = load_model(tmp_path / "m.skops")
    assert back.transform(X)[2].column("lex") == m.transform(X)[2].column("lex")
