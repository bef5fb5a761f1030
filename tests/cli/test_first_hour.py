"""Issue 15, "a user's first hour", from the command line: a bundled model that tags with no
setup, confidences in every output, progress and model information, small model files."""

import io
import json
import zipfile

import joblib
import pytest

import skbioner
from skbioner.datasets import load_jnlpba_sample
from skbioner.io import load_model, model_metadata, read_brat, write_columns
from skbioner.tagging import BUNDLED_MODEL
from tests.cli.test_hostile import one_line_error, run

ABSTRACT = ("Activation of NF-kappa B by interleukin-2 requires the IL-2 receptor beta chain "
            "in human T lymphocytes.\nThe c-myc gene is expressed in HeLa cells.")


@pytest.fixture
def abstract(tmp_path):
    path = tmp_path / "abs1.txt"
    path.write_text(ABSTRACT)
    return path


@pytest.fixture(scope="module")
def sample_train(tmp_path_factory):
    """The bundled training sample as a column file, as a user would write it out."""
    path = tmp_path_factory.mktemp("sample") / "train.iob2"
    write_columns(path, load_jnlpba_sample("train"))
    return path


# -- item 1: the bundled model tags without a model argument --------------------------------


def test_tag_without_a_model_uses_the_bundled_one(abstract, capsys):
    status, out, err = run(capsys, "tag", abstract)  # JSONL on stdout
    assert status == 0 and "tagged 1 document:" in err
    [record] = [json.loads(line) for line in out.splitlines()]
    assert record["id"] == "abs1"
    got = [(e["type"], e["text"]) for e in record["entities"]]
    assert ("protein", "NF-kappa B") in got and ("cell_line", "HeLa cells") in got
    assert all(ABSTRACT[e["start"]:e["end"]] == e["text"] for e in record["entities"])
    assert all(0 < e["confidence"] <= 1 for e in record["entities"])
    # the same entities as in Python
    assert got == [(e.type, e.text) for e in skbioner.tag_text(ABSTRACT)]


def test_model_first_form_and_model_option_agree(abstract, tmp_path, capsys):
    model = tmp_path / "copy.skops"
    model.write_bytes(BUNDLED_MODEL.read_bytes())
    outs = []
    for args in (("tag", model, abstract, "-o", tmp_path / "a.jsonl"),   # the older form
                 ("tag", "--model", model, abstract, "-o", tmp_path / "b.jsonl"),
                 ("tag", abstract, "-m", model, "-o", tmp_path / "c.jsonl"),
                 ("tag", abstract, "-o", tmp_path / "d.jsonl")):           # bundled
        assert run(capsys, *args)[0] == 0
        outs.append((tmp_path / args[-1].name).read_text())
    assert outs[0] == outs[1] == outs[2] == outs[3]
    status, _, err = run(capsys, "tag", model)
    assert status == 1
    one_line_error(err, "tag", "is a model file: give the INPUT files")


# -- item 4: confidences in JSONL and brat; --min-confidence -----------------------------------


def test_confidences_in_brat_notes_match_jsonl_and_min_confidence_filters(abstract, tmp_path,
                                                                           capsys):
    assert run(capsys, "tag", abstract, "-o", tmp_path / "all.jsonl")[0] == 0
    entities = json.loads((tmp_path / "all.jsonl").read_text())["entities"]
    assert run(capsys, "tag", abstract, "-o", tmp_path / "brat", "--output-format",
               "brat")[0] == 0
    doc = read_brat(tmp_path / "brat" / "abs1.txt")  # notes are kept as other lines
    notes = dict(line.split("\t")[1:] for line in doc.other_lines)
    by_id = {f"AnnotatorNotes {e.id}": (e.type, e.start, e.end) for e in doc.entities}
    assert {by_id[k]: float(v.removeprefix("confidence=")) for k, v in notes.items()} == {
        (e["type"], e["start"], e["end"]): e["confidence"] for e in entities}
    middle = sorted(e["confidence"] for e in entities)[len(entities) // 2]
    # written with 4 digits: half a unit below keeps exactly those shown >= middle
    assert run(capsys, "tag", abstract, "-o", tmp_path / "kept.jsonl", "--min-confidence",
               middle - 0.00005)[0] == 0
    kept = json.loads((tmp_path / "kept.jsonl").read_text())["entities"]
    assert kept == [e for e in entities if e["confidence"] >= middle]
    assert 0 < len(kept) < len(entities)
    assert run(capsys, "tag", abstract, "-o", tmp_path / "none.jsonl", "--no-confidence")[0] == 0
    plain = json.loads((tmp_path / "none.jsonl").read_text())["entities"]
    assert [e["confidence"] for e in plain] == [None] * len(entities)
    assert [e["text"] for e in plain] == [e["text"] for e in entities]


def test_min_confidence_needs_a_model_that_gives_confidences(abstract, sample_train, tmp_path,
                                                             capsys):
    majority = tmp_path / "majority.skops"
    assert run(capsys, "train", "-q", "--train", sample_train, "--model", "majority", "-o",
               majority)[0] == 0
    status, _, err = run(capsys, "tag", abstract, "-m", majority, "--min-confidence", "0.5")
    assert status == 1
    one_line_error(err, "tag", "MajorityTagger) gives none")
    status, out, _ = run(capsys, "tag", abstract, "-m", majority)
    assert status == 0 and all(e["confidence"] is None
                               for e in json.loads(out)["entities"])
    status, _, err = run(capsys, "tag", abstract, "--min-confidence", "2")
    one_line_error(err, "tag", "--min-confidence must be between 0 and 1")


# -- items 6 and 7: progress, info, compact files ---------------------------------------------


def test_train_shows_phases_and_epochs_and_q_silences(sample_train, tmp_path, capsys):
    out = tmp_path / "m.skops"
    status, stdout, err = run(capsys, "train", "--train", sample_train, "-o", out,
                              "--param", "max_iter=3")
    assert status == 0 and stdout == ""
    for phase in ("read ", "250 documents", "(step 1 of 2) Processing features, total=",
                  "OnlinePACRF epochs", "3/3", "calibrating the confidences",
                  "(step 2 of 2) Processing model, total=", f"saved {out}"):
        assert phase in err, phase
    status, stdout, err = run(capsys, "train", "-q", "--train", sample_train, "-o", out,
                              "--param", "max_iter=3")
    assert (status, stdout, err) == (0, "", "")
    status, _, err = run(capsys, "train", "--train", sample_train, "-o", out, "--model",
                         "cascaded", "--param", "n_folds=2", "--param", "segmenter__max_iter=2",
                         "--param", "classifier__max_iter=2")
    assert status == 0 and "CascadedNER stage 1 (final segmenter + 2 folds)" in err
    assert "3/3" in err  # the three stage-1 models


def test_info_describes_the_bundled_model(capsys):
    status, out, _ = run(capsys, "info", "--top", "3", "--labels", "B-protein")
    assert status == 0
    for needle in ("jnlpba.skops", "safe .skops format", "entity types: DNA, RNA, cell_line, "
                   "cell_type, protein", "2,000 documents, 18,696 sentences, 492,806 tokens",
                   "scheme: BIES internally (+ IO", "min_count=3", "confidences: yes",
                   "heaviest features of B-protein:", "scikit-learn"):
        assert needle in out, needle
    assert "heaviest features of I-protein" not in out
    status, out, _ = run(capsys, "info", "--json", "--top", "2")
    info = json.loads(out)
    assert info["model"]["scheme"] == "BIES" and info["features"]["n_features"] > 100_000
    assert len(info["top_features"]) == 24  # BIES labels of five types and O
    weights = info["top_features"]["S-protein"]["positive"]
    assert len(weights) == 2 and weights[0][1] >= weights[1][1] > 0
    status, _, err = run(capsys, "info", "--top", "2", "--labels", "B-gene")
    one_line_error(err, "info", "no label B-gene")


def test_train_writes_the_compact_safe_form_with_identical_predictions(sample_train, tmp_path,
                                                                       capsys):
    out = tmp_path / "m.skops"
    assert run(capsys, "train", "-q", "--train", sample_train, "-o", out)[0] == 0
    saved = load_model(out)
    assert not hasattr(saved[-1], "_w") and not hasattr(saved[-1], "_acc")  # no training state
    with zipfile.ZipFile(out) as archive:
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_DEFLATED}
    fresh = skbioner.make_tagger("online-crf")
    train = load_jnlpba_sample("train")
    test = load_jnlpba_sample("test")
    fresh.fit(train.X, train.y)
    assert saved.predict(test.X) == fresh.predict(test.X)
    pickled = io.BytesIO()
    joblib.dump(fresh, pickled)
    assert out.stat().st_size < len(pickled.getvalue()) / 3  # measured: about 1/5
    meta = model_metadata(out)
    assert meta["training_data"]["sentences"] == len(train.X) and meta["model"] == "online-crf"
    status, text, _ = run(capsys, "info", out)
    assert "250 documents" in text and "trained: skbioner train (model=online-crf)" in text


def test_bundled_model_in_worker_processes_gives_the_same_output(abstract, tmp_path, capsys):
    for i in range(3):
        (abstract.parent / f"more{i}.txt").write_text(ABSTRACT.replace("HeLa", f"HeLa-{i}"))
    out = tmp_path / "out"
    out.mkdir()
    assert run(capsys, "tag", abstract.parent, "-o", out / "one.jsonl")[0] == 0
    assert run(capsys, "tag", abstract.parent, "-o", out / "two.jsonl", "--n-jobs", "2",
               "--batch-size", "1", "--parallel-from", "0")[0] == 0
    one = (out / "one.jsonl").read_text()
    assert one == (out / "two.jsonl").read_text() and one.count("\n") == 4
