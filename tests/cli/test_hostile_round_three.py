"""Issue 37: every size read from a file is bounded before memory is spent.

Crafted model files are built here from a freshly saved model (nothing stored);
the end-to-end sweep of the same cases is tests/hostile_inputs.py.
"""

import gzip
import io
import sys
import zipfile

import numpy as np
import pytest

from skbioner.cli import main
from skbioner.io import ModelFileError, load_model, save_model
from tests.conftest import hostile_inputs

H = hostile_inputs()


def run(capsys, *args):
    capsys.readouterr()
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _one_line_naming(err, command, path):
    return (err.count("\n") == 1 and err.startswith(f"skbioner {command}: error: ")
            and str(path) in err)


# -- items 1 and 3: counts and offsets of a model bounded before anything is built ------------


@pytest.mark.parametrize("command", ["info", "predict", "tag"])
def test_a_stored_count_never_sizes_an_allocation(tmp_path, capsys, toy_files, command):
    # item 1: n_words_ = 300,000,000 made np.empty allocate 2.6 GB while loading
    path = _write(tmp_path, "n-words.skops", H.edited_model(
        H.word_class_model(), H._set("WordClassAnnotator", "n_words_", 300_000_000)))
    train, _ = toy_files
    args = {"info": [path], "predict": [path, train, "-o", tmp_path / "p.iob2"],
            "tag": ["-m", path, train, "-o", tmp_path / "t.jsonl"]}[command]
    status, _, err = run(capsys, command, *args)
    assert status == 1 and _one_line_naming(err, command, path)
    assert "WordClassAnnotator.n_words_ is 300,000,000" in err and "refused" in err


def test_a_count_that_contradicts_its_array_is_refused(tmp_path):
    # within the bound, but not the length of the words stored beside it
    path = _write(tmp_path, "n-words.skops", H.edited_model(
        H.word_class_model(), H._set("WordClassAnnotator", "n_words_", 1000)))
    with pytest.raises(ModelFileError, match=r"n_words_ is 1,000 but words_ holds 3"):
        load_model(path)


@pytest.mark.parametrize("edit, needle", [
    (H._set("FeatureGroup", "offsets", 40_000_000, 0), "FeatureGroup.offsets is 40,000,000"),
    (H._set("FeatureGroup", "offsets", 10**9, 0), "FeatureGroup.offsets is 1,000,000,000"),
    (H._set("TokenFeaturizer", "n_features_out_", 2**40), "n_features_out_ is"),
])
def test_window_offsets_and_feature_counts_are_bounded(tmp_path, capsys, toy_files, edit,
                                                       needle):
    # item 3: an offset of 4e7 allocated 2.1 GB; 1e7 "negative dimensions"; 1e9 blamed the
    # input for running out of memory; a feature count beyond int32 an OverflowError
    train, model = toy_files
    path = _write(tmp_path, "offset.skops", H.edited_model(model.read_bytes(), edit))
    status, _, err = run(capsys, "predict", path, train, "-o", tmp_path / "p.iob2")
    assert status == 1 and _one_line_naming(err, "predict", path) and needle in err


@pytest.mark.parametrize("value, cls, message", [
    (np.int64(40_000_000), "int64", "FeatureGroup.offsets is 40,000,000"),
    (np.array([40_000_000]), "ndarray", "offsets must be int, got array"),
], ids=["numpy scalar", "one-element array"])
def test_a_size_stored_as_a_numpy_number_is_bounded_too(tmp_path, toy_files, value, cls,
                                                         message):
    # a number need not be JSON: a numpy scalar is a member, an array becomes int once built
    _, model = toy_files
    buffer = io.BytesIO()
    np.save(buffer, value)

    def edit(schema):
        offsets = H.attributes(schema, "FeatureGroup")[0]["offsets"]["content"]
        offsets[0] = {"__class__": cls, "__module__": "numpy", "__loader__": "NdArrayNode",
                      "type": "numpy", "file": "offset.npy"}

    padded = io.BytesIO()
    with zipfile.ZipFile(padded, "w", zipfile.ZIP_DEFLATED) as z:
        with zipfile.ZipFile(io.BytesIO(H.edited_model(model.read_bytes(), edit))) as src:
            for info in src.infolist():
                z.writestr(info.filename, src.read(info))
        z.writestr("offset.npy", buffer.getvalue())
    path = _write(tmp_path, "numpy.skops", padded.getvalue())
    with pytest.raises(ModelFileError, match=message):
        load_model(path)


def test_padding_does_not_raise_the_bound_and_parameters_vouch_for_their_copies(tmp_path,
                                                                                 toy_files):
    _, model = toy_files
    padded = io.BytesIO()
    with zipfile.ZipFile(padded, "w", zipfile.ZIP_DEFLATED) as z:  # 64 MB of zeros beside it
        with zipfile.ZipFile(model) as src:
            for info in src.infolist():
                z.writestr(info.filename, src.read(info))
        z.writestr("padding.bin", bytes(64 * 2**20))
    path = _write(tmp_path, "padded.skops", H.edited_model(
        padded.getvalue(), H._set("FeatureGroup", "offsets", 8_000_000, 0)))
    with pytest.raises(ModelFileError, match=r"FeatureGroup.offsets is 8,000,000"):
        load_model(path)
    path = _write(tmp_path, "iters.skops", H.edited_model(
        model.read_bytes(), H._set("OnlinePACRF", "t_", 10**8)))
    with pytest.raises(ModelFileError, match=r"OnlinePACRF.t_ is 100,000,000"):
        load_model(path)

    def both(schema):  # a fitted count equal to a (validated) parameter: n_hash_ and n_hash
        H._set("OnlinePACRF", "max_iter", 10**8)(schema)
        H._set("OnlinePACRF", "n_iter_", 10**8)(schema)

    path = _write(tmp_path, "same.skops", H.edited_model(model.read_bytes(), both))
    assert load_model(path).steps[-1][1].n_iter_ == 10**8


def test_restored_parameters_are_validated_as_a_constructor_would(tmp_path, toy_files):
    _, model = toy_files
    path = _write(tmp_path, "iter.skops", H.edited_model(
        model.read_bytes(), H._set("OnlinePACRF", "max_iter", "many")))
    with pytest.raises(ModelFileError, match=rf"{path}: cannot load the model.*max_iter"):
        load_model(path)
    path = _write(tmp_path, "group.skops", H.edited_model(
        model.read_bytes(), H._set("FeatureGroup", "offsets", "far", 0)))
    with pytest.raises(ModelFileError, match=r"offsets must be int"):
        load_model(path)
    again = _write(tmp_path, "again.skops", H.edited_model(model.read_bytes(), lambda s: None))
    assert load_model(again).predict([["IL-2", "gene"]]) == \
        load_model(model).predict([["IL-2", "gene"]])  # a model saved as it is loads


# -- item 2: members checked by what they are -------------------------------------------------


def test_a_sparse_matrix_member_is_checked_whatever_its_name(tmp_path):
    import scipy.sparse as sp

    matrix = io.BytesIO()
    sp.save_npz(matrix, sp.csr_matrix((2, 5_000_000_000)), compressed=False)
    node = {"__class__": "csr_matrix", "__module__": "scipy.sparse._csr",
            "__loader__": "SparseMatrixNode", "type": "scipy", "file": "weights.bin"}
    path = _write(tmp_path, "wide.skops", H.skops_file(node, [("weights.bin",
                                                                  matrix.getvalue())]))
    with pytest.raises(ModelFileError, match=r"member weights.bin: a sparse matrix of shape "
                                             r"\(2, 5000000000\)"):
        load_model(path)
    matrix = io.BytesIO()  # 1,000 rows of 3,000,000 columns: 24 GB once made dense
    sp.save_npz(matrix, sp.csr_matrix((1000, 3_000_000)), compressed=False)
    path = _write(tmp_path, "dense.skops", H.skops_file(node, [("weights.bin",
                                                                   matrix.getvalue())]))
    with pytest.raises(ModelFileError, match=r"a sparse matrix of shape \(1000, 3000000\)"):
        load_model(path)


# -- item 7: a type-confused model is an invalid model file ----------------------------------


def test_a_type_confused_model_is_named_as_invalid(tmp_path, capsys, toy_files):
    from skbioner.models import MajorityTagger

    train, _ = toy_files
    save_model(MajorityTagger().fit([["IL-2"]], [["B-DNA"]]), tmp_path / "m.skops")
    path = _write(tmp_path, "confused.skops", H.edited_model(
        (tmp_path / "m.skops").read_bytes(),
        lambda s: H.attributes(s, "MajorityTagger")[0].update(vocabulary_=H._json_node(5))))
    status, _, err = run(capsys, "predict", path, train, "-o", tmp_path / "p.iob2")
    assert status == 1 and _one_line_naming(err, "predict", path)
    assert f"{path}: the model file is invalid or damaged (unexpected AttributeError" in err


# -- items 5 and 8: word-class tables ----------------------------------------------------------


_TABLE = "# skbioner word classes; normalize=none\n"


def _fit_table(tmp_path, name, content):
    from skbioner.annotate import WordClassAnnotator

    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return WordClassAnnotator(classes=str(path)).fit([["IL-2"]]), path


@pytest.mark.parametrize("content, message", [
    (_TABLE + "word\tbrown\nIL-2\t0\np53\t1\nIL-2\t10\n",
     r":5: the word 'IL-2' appears twice \(first on line 3\)"),
    (_TABLE + "word\tbrown\n", r": no word after the header line \(an empty class table\)"),
    (_TABLE + "word\t" + "\t".join(f"c{i}" for i in range(1000)) + "\n",
     r":2: expected the header 'word<TAB>column...' with 1 to 64 columns"),
    (_TABLE + "word\t" + "\t".join(f"c{i}" for i in range(200_000)) + "\n",
     r":2: a line of more than 65,536 characters"),
    (gzip.compress(b"a" * 50_000_000), r":1: a line of more than 65,536 characters"),
    (gzip.compress(_TABLE.encode() + b"word\tbrown\n" + b"a\t0\n" * 5_000_000),
     r":4: the word 'a' appears twice"),
], ids=["duplicate", "empty", "1000 columns", "200000 columns", "zeros", "repeats"])
def test_class_tables_are_read_as_streams_and_named(tmp_path, content, message):
    # item 5: 200,000 columns never finished; a gzip bomb was inflated whole;
    # item 8: a duplicate said neither file nor line; an empty table was accepted
    with pytest.raises(ValueError, match=message) as exc:
        _fit_table(tmp_path, "classes.tsv.gz", content)
    assert str(tmp_path / "classes.tsv.gz") in str(exc.value)


def test_a_gzip_bomb_table_is_refused_before_inflating(tmp_path):
    import resource
    import subprocess

    bomb = tmp_path / "bomb.tsv.gz"
    with gzip.open(bomb, "wb") as fh:  # 1 GB of zeros, ~1 MB on disk
        for _ in range(1024):
            fh.write(bytes(2**20))
    code = ("from skbioner.io import read_word_classes as r\n"
            f"try: r({str(bomb)!r})\nexcept ValueError as e: print(e)")

    def limit():  # the whole table inflated would not fit
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          preexec_fn=limit, timeout=120)
    assert f"{bomb}:1: a line of more than" in done.stdout, done.stderr[-300:]


# -- item 4: unlabeled text streamed, sentences bounded ---------------------------------------


def test_unlabeled_text_is_streamed_and_sentences_bounded(tmp_path, monkeypatch):
    from skbioner.io import _tokenized, read_tokenized

    long_line = tmp_path / "one-line.txt"
    long_line.write_text("IL-2 gene\n" + "w " * 20_000 + "\nlast\n")
    with pytest.raises(ValueError, match=rf"{long_line}:2: a line of 20,000 tokens"):
        read_tokenized(long_line)
    huge = tmp_path / "huge.txt"
    huge.write_text("IL-2 gene\n" + "w" * 2_000_000 + "\n")
    with pytest.raises(ValueError, match=rf"{huge}:2: a line of more than 1,048,576"):
        read_tokenized(huge)
    many = tmp_path / "many.txt"
    many.write_text("IL-2 gene .\n" * 1000)
    assert len(read_tokenized(many, max_tokens=30)) == 10
    reads = []
    real = _tokenized.text_lines
    monkeypatch.setattr(_tokenized, "text_lines", lambda *a: (reads.append(1) or x
                                                              for x in real(*a)))
    read_tokenized(many, max_tokens=30)
    assert len(reads) == 10  # what is read is bounded, not only what is kept


def test_distillation_reads_a_bounded_part_of_its_pool(tmp_path):
    from skbioner.ensemble import DistilledTagger
    from skbioner.ensemble._distill import READ_FACTOR
    from skbioner.models import MajorityTagger

    pool = tmp_path / "pool.txt"
    pool.write_text("".join(f"w{i} gene .\n" for i in range(2000)))
    d = DistilledTagger(MajorityTagger(), MajorityTagger(), max_tokens=6)
    assert sum(map(len, d._unlabeled_sentences(str(pool)))) == 6 * READ_FACTOR


# -- item 6: standard input streams ------------------------------------------------------------


def test_plain_text_on_stdin_streams_in_pieces(monkeypatch):
    from skbioner.tagging import _documents, iter_documents

    monkeypatch.setattr(_documents, "STDIN_PIECE", 100)
    para = "The IL-2 gene in T cells .\n" * 3 + "\n"
    read = []

    class Stdin(io.BytesIO):
        def readline(self, size=-1):
            line = super().readline(size)
            read.append(len(line))
            return line

    stdin = Stdin((para * 10 + "x" * 500 + "\nlast é\n").encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    docs = iter_documents(["-"])
    first = next(docs)
    assert first.id == "stdin" and first.text == para * 2 and sum(read) < 300  # not all read
    rest = list(docs)
    assert [d.id for d in rest[:4]] == ["stdin-2", "stdin-3", "stdin-4", "stdin-5"]
    assert "<stdin>:41: a line of more than 400 bytes" in str(rest[-2])
    assert rest[-1].text == "last é\n" and rest[-1].source == "<stdin>:42"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"IL-2 gene\n\nTNF .\n")))
    assert [(d.id, d.text) for d in iter_documents(["-"])] == [("stdin",
                                                                  "IL-2 gene\n\nTNF .\n")]


def test_batches_are_bounded_in_characters():
    from skbioner.tagging import Document, _tagger

    docs = [Document(str(i), "w " * 300_000, "x") for i in range(5)]
    assert [len(b) for b in _tagger._batches(docs, 128)] == [2, 2, 1]


# -- item 9: a cache file that cannot be written ----------------------------------------------


def test_a_failed_numba_cache_write_is_a_note_naming_the_cache(capsys, monkeypatch):
    from numba.core import caching

    from skbioner._numba_cache import tolerate_cache_write_errors

    def full(self, sig, data):
        raise OSError(27, "File too large")

    monkeypatch.setattr(caching.Cache, "save_overload", full)
    tolerate_cache_write_errors()

    class Cache:
        _cache_path = "/some/cache/dir"

    caching.Cache.save_overload(Cache(), None, None)
    caching.Cache.save_overload(Cache(), None, None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/some/cache/dir (File too large)" in err


# -- item 10: -o newdir/ -----------------------------------------------------------------------


def test_an_output_name_ending_in_a_slash_is_not_written_as_a_file(tmp_path, capsys,
                                                                     toy_files):
    train, model = toy_files
    out = f"{tmp_path}/newdir/"
    status, _, err = run(capsys, "predict", model, train, "-o", out)
    assert status == 1 and "the name ends in '/'" in err and out in err
    assert not (tmp_path / "newdir").exists()


# -- item 11 -----------------------------------------------------------------------------------


def test_fit_without_labels_says_so():
    from skbioner.models import MajorityTagger
    from skbioner.pipelines import make_tagger

    for model in (MajorityTagger(), make_tagger()):
        with pytest.raises(ValueError, match="requires y to be passed"):
            model.fit([["IL-2", "gene"]], None)


def test_a_tokenizer_failure_always_says_why(monkeypatch):
    from skbioner.tagging import Document, DocumentError, _tagger
    from skbioner.text import BioTokenizer

    def no_memory(self, text):
        raise MemoryError()

    monkeypatch.setattr(BioTokenizer, "tokenize_text", no_memory)
    [res] = _tagger._tag_docs(None, [Document("d", "IL-2 gene", "x")], BioTokenizer(), 1000)
    assert isinstance(res, DocumentError) and str(res).endswith("cannot tokenize: out of memory")


def test_numbers_a_restore_derives_are_bounded_after_building():
    # what no schema shows (a number a __setstate__ computes) is checked once built
    from skbioner.io._models import _check_restored
    from skbioner.models import MajorityTagger

    model = MajorityTagger().fit([["IL-2"]], [["B-DNA"]])
    model.width_ = (np.int64(10**9),)
    with pytest.raises(ValueError, match=r"MajorityTagger.width_ is 1,000,000,000"):
        _check_restored(model, 2**22)
    model.width_ = (np.int64(5),)
    _check_restored(model, 2**22)
