"""Documents a test set shares with training data; scoring without them."""

import pytest

from skbioner.datasets import drop_documents, jnlpba_overlap_ids
from skbioner.metrics import evaluate_files
from tests.conftest import data_path

GOLD = ("###MEDLINE:1\n\nIL-2\tB-protein\nbinds\tO\n\np53\tB-protein\n\n"
        "###MEDLINE:2\n\nT\tB-cell_type\ncells\tI-cell_type\n\n"
        "###MEDLINE:3\n\nc-myc\tB-DNA\ngene\tI-DNA\n\n")
PRED = ("###MEDLINE:1\n\nIL-2\tB-protein\nbinds\tO\n\np53\tO\n\n"
        "###MEDLINE:2\n\nT\tB-cell_type\ncells\tI-cell_type\n\n"
        "###MEDLINE:3\n\nc-myc\tB-protein\ngene\tO\n\n")
TRAIN = "###MEDLINE:3\n\nc-myc\tB-DNA\n\n###MEDLINE:9\n\nx\tO\n\n"


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, text in (("gold", GOLD), ("pred", PRED), ("train", TRAIN)):
        out[name] = tmp_path / f"{name}.iob2"
        out[name].write_text(text)
    return out


def test_scores_without_the_overlap_equal_the_filtered_files(files, tmp_path):
    ov = jnlpba_overlap_ids(files["train"], files["gold"])
    assert ov == ["3"]
    assert drop_documents(files["gold"], tmp_path / "g.iob2", ov) == 1
    assert drop_documents(files["pred"], tmp_path / "p.iob2", ov) == 1
    # every other line byte for byte
    assert (tmp_path / "g.iob2").read_text() == GOLD.split("###MEDLINE:3")[0]
    filtered = evaluate_files(tmp_path / "g.iob2", tmp_path / "p.iob2")
    excluded = evaluate_files(files["gold"], files["pred"], exclude_documents=ov)
    assert excluded.to_dict() == filtered.to_dict()
    assert (filtered.overall.n_gold, filtered.overall.exact.tp) == (3, 2)
    whole = evaluate_files(files["gold"], files["pred"])
    assert whole.overall.n_gold == 4 and whole.overall.exact.f1 < filtered.overall.exact.f1
    with pytest.raises(ValueError, match="is the input file"):
        drop_documents(files["gold"], files["gold"], ov)


def test_cli_evaluate_excludes_the_overlap(files, capsys):
    import json

    from skbioner.cli import main

    assert main(["evaluate", str(files["gold"]), str(files["pred"]), "--json",
                 "--exclude-overlap", str(files["train"])]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["overall"]["n_gold"] == 3
    assert "1 documents of" in out.err and "left out" in out.err


def test_jnlpba_test_without_the_overlap_has_394_abstracts(tmp_path):
    test = data_path("jnlpba", "test.iob2")
    ov = jnlpba_overlap_ids(data_path("jnlpba", "train.iob2"), test)
    assert len(ov) == 10
    # the same abstracts are in GENIA POS train, the bundled POS tagger's training data
    assert set(jnlpba_overlap_ids(data_path("genia-pos", "train.tsv"), test)) == set(ov)
    assert drop_documents(test, tmp_path / "test394.iob2", ov) == 10
    kept = (tmp_path / "test394.iob2").read_text(encoding="utf-8")
    assert kept.count("###MEDLINE:") == 394 and not any(f"###MEDLINE:{d}\n" in kept for d in ov)
