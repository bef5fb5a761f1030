from importlib import resources

import pytest

from skbioner.datasets import JNLPBA_TYPES, load_jnlpba, load_jnlpba_sample
from skbioner.schemes import labels_to_spans
from tests.conftest import data_path


@pytest.mark.parametrize("subset,n_docs", [("train", 250), ("test", 51)])
def test_bundled_sample(subset, n_docs):
    c = load_jnlpba_sample(subset)
    assert len(set(c.doc_ids)) == n_docs
    assert len(c.X) == len(c.y) == len(c.doc_ids)
    types = {t for labels in c.y for t, _, _ in labels_to_spans(labels)}
    assert types == set(JNLPBA_TYPES)


def test_sample_ships_licence_and_attribution():
    data = resources.files("skbioner.datasets") / "data"
    assert "GENIA Project" in (data / "LICENSE-GENIA").read_text()
    assert "(c) GENIA Project" in (data / "README.md").read_text()


def test_sample_is_a_byte_exact_subset_of_the_corpus():
    train = data_path("jnlpba", "train.iob2").read_text(encoding="utf-8")
    sample = load_jnlpba_sample("train")
    # every 8th abstract, byte for byte
    chunks = ["###MEDLINE:" + p for p in train.split("###MEDLINE:")[1:]][::8]
    first_doc = chunks[0].split("\n", 1)[0].split(":", 1)[1]
    assert sample.doc_ids[0] == first_doc
    assert sum(map(len, sample.X)) == sum(c.count("\t") for c in chunks)


def test_load_full_files():
    d = data_path("jnlpba")
    assert sum(map(len, load_jnlpba(d, "test").X)) == 101039
    assert len(load_jnlpba(d / "train.iob2").X) == 18696
    with pytest.raises(ValueError, match="subset must be one of"):
        load_jnlpba(d, "dev")
    with pytest.raises(FileNotFoundError):
        load_jnlpba(d / "nope.iob2")


def test_train_dev_split_by_documents():
    from skbioner.datasets import train_dev_split

    docs = ["a", "a", "b", "c", "c", "c", "d", "e", "f", "g", "h", "i", "j"]
    tr, dev = train_dev_split(docs, 0.2)
    assert [docs[i] for i in dev] == ["i", "j"]
    assert sorted(list(tr) + list(dev)) == list(range(len(docs)))
    with pytest.raises(ValueError):
        train_dev_split(docs, 1.0)


def test_overlap_ids_of_small_files(tmp_path):
    from skbioner.datasets import jnlpba_overlap_ids

    def write(name, ids):
        text = "".join(f"###MEDLINE:{d}\n\nIL-2\tB-protein\n\n" for d in ids)
        (tmp_path / name).write_text(text, encoding="utf-8")
        return tmp_path / name

    train, test = write("train.iob2", ["1", "2", "3"]), write("test.iob2", ["9", "3", "1", "8"])
    assert jnlpba_overlap_ids(train, test) == ["3", "1"]  # in the test file's order


def test_overlap_of_the_real_files_is_ten_abstracts():
    from skbioner.datasets import jnlpba_overlap_ids

    d = data_path("jnlpba")
    shared = jnlpba_overlap_ids(d / "train.iob2", d / "test.iob2")
    assert len(shared) == 10 and len(set(shared)) == 10
