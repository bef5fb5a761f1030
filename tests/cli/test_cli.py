"""The command line, run in-process and as the installed console script."""

import json
import shutil
import subprocess
import sys

import pytest

from skbioner.cli import main
from tests.conftest import data_path

GOLD = "###MEDLINE:1\n\nIL-2\tB-protein\ngene\tO\n\nT\tB-cell_type\ncells\tI-cell_type\n\n"
PRED = "###MEDLINE:1\n\nIL-2\tB-protein\ngene\tO\n\nT\tB-cell_type\ncells\tO\n\n"


@pytest.fixture
def files(tmp_path):
    g, p = tmp_path / "gold.iob2", tmp_path / "pred.iob2"
    g.write_text(GOLD)
    p.write_text(PRED)
    return g, p


def test_evaluate_json(files, capsys):
    assert main(["evaluate", str(files[0]), str(files[1]), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["n_gold"] == 2 and out["overall"]["n_pred"] == 2
    assert out["overall"]["exact"]["tp"] == 1 and out["overall"]["left"]["tp"] == 2
    assert out["per_class"]["protein"]["exact"]["f1"] == 1.0
    assert set(out) == {"overall", "per_class"}


def test_evaluate_text(files, capsys):
    assert main(["evaluate", str(files[0]), str(files[1])]) == 0
    out = capsys.readouterr().out
    assert "FULLY CORRECT answer with class info: 1 (0.5000 / 0.5000 / 0.5000)," in out


def test_evaluate_user_error_is_one_line(files, tmp_path, capsys):
    bad = tmp_path / "short.iob2"
    bad.write_text("IL-2\tB-protein\n\n")
    assert main(["evaluate", str(files[0]), str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "short.iob2" in err and "Traceback" not in err
    assert main(["evaluate", str(files[0]), str(tmp_path / "missing")]) == 1
    err = capsys.readouterr().err
    assert "missing: No such file or directory" in err


def test_convert_round_trip(files, tmp_path):
    out, back = tmp_path / "bies.txt", tmp_path / "back.txt"
    assert main(["convert", str(files[0]), str(out), "--to-scheme", "BIES"]) == 0
    assert "S-protein" in out.read_text() and "S-O" in out.read_text()
    assert main(["convert", str(out), str(back), "--from-scheme", "BIES",
                 "--to-scheme", "IOB2"]) == 0
    assert back.read_bytes() == files[0].read_bytes()


def test_convert_rejects_bad_label_with_line(tmp_path, capsys):
    src = tmp_path / "in.iob2"
    src.write_text("a\tO\nb\tE-DNA\n\n")
    assert main(["convert", str(src), str(tmp_path / "o"), "--to-scheme", "IOBES"]) == 1
    err = capsys.readouterr().err
    assert "in.iob2:2" in err and "E-DNA" in err


def test_every_subcommand_has_help(capsys):
    for sub in ("train", "predict", "evaluate", "convert", "demo"):
        with pytest.raises(SystemExit) as e:
            main([sub, "--help"])
        assert e.value.code == 0
        assert "usage: skbioner " + sub in capsys.readouterr().out


@pytest.mark.slow
def test_demo_runs(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "FULLY CORRECT answer with class info" in out and "Example:" in out


@pytest.mark.skipif(shutil.which("skbioner") is None, reason="console script not installed")
def test_console_script_error_exit_status(tmp_path):
    r = subprocess.run(["skbioner", "evaluate", str(tmp_path / "a"), str(tmp_path / "b")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.startswith("skbioner evaluate: error:")


def test_module_entry_point_matches_official_on_real_data():
    path = data_path("jnlpba", "test.iob2")
    r = subprocess.run([sys.executable, "-m", "skbioner", "evaluate", str(path), str(path),
                        "--json"], capture_output=True, text=True, check=True)
    assert json.loads(r.stdout)["overall"]["n_gold"] == 8662


TRAIN = "###MEDLINE:1\n\n" + "".join(
    f"The\tO\n{g}\tB-DNA\ngene\tI-DNA\nin\tO\n{c}\tB-cell_type\ncells\tI-cell_type\n.\tO\n\n"
    for g in ("IL-2", "p53", "TNF", "c-myc") for c in ("T", "B", "HeLa")
)


@pytest.mark.parametrize("model", ["online-crf", "cascaded", "majority"])
def test_train_then_predict_then_evaluate(tmp_path, model, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    out = tmp_path / "m.skops"
    params = ["--param", "n_folds=2"] if model == "cascaded" else []
    assert main(["train", "--train", str(train), "--model", model, "-o", str(out)] + params) == 0
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(out), str(train), "-o", str(pred)]) == 0
    assert pred.read_text() == TRAIN
    # a token-only input gets a label column added
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(line.split("\t")[0] + "\n" if "\t" in line else line + "\n"
                              for line in TRAIN.split("\n")[:-1]))
    assert main(["predict", str(out), str(tokens), "-o", str(tmp_path / "p2")]) == 0
    assert (tmp_path / "p2").read_text() == TRAIN
    capsys.readouterr()
    assert main(["evaluate", str(train), str(pred), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["exact"]["f1"] == 1.0


def test_train_verbose_and_bad_param(tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    assert main(["train", "--train", str(train), "--model", "online-crf", "--verbose",
                 "--param", "max_iter=2", "--param", "tol=None", "-o",
                 str(tmp_path / "m.skops")]) == 0
    assert "-- epoch 1: loss" in capsys.readouterr().err
    assert main(["train", "--train", str(train), "--param", "nonsense=1", "-o",
                 str(tmp_path / "m.skops")]) == 1
    assert "nonsense" in capsys.readouterr().err
    assert main(["predict", str(train), str(train), "-o", str(tmp_path / "x")]) == 1


def test_predict_reads_gzip_input(tmp_path):
    import gzip

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    gz = tmp_path / "train.iob2.gz"
    gz.write_bytes(gzip.compress(TRAIN.encode()))
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--model", "majority", "-o", str(model)]) == 0
    assert main(["predict", str(model), str(gz), "-o", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p").read_text() == TRAIN


def test_train_with_pos_and_hmm_states(tmp_path, capsys):
    from skbioner.io import load_model

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    unlabeled = tmp_path / "unlabeled.txt"
    unlabeled.write_text("The IL-2 gene is expressed in T cells .\nNF-kappa B binds DNA .\n" * 5)
    out = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--pos", "--hmm-states", str(unlabeled),
                 "--hmm-param", "n_states=3", "--hmm-param", "max_iter=2", "--hmm-param",
                 "tol=None", "-o", str(out)]) == 0
    model = load_model(out)
    assert [name for name, _ in model.steps] == ["pos", "hmm", "features", "model"]
    names = model.named_steps["features"].get_feature_names_out()
    assert any(n.startswith("pos[") for n in names) and any(n.startswith("hmm[") for n in names)
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(out), str(train), "-o", str(pred)]) == 0
    assert pred.read_text() == TRAIN
    capsys.readouterr()
    assert main(["train", "--train", str(train), "--model", "majority", "--pos", "-o",
                 str(out)]) == 1
    assert "reads words only" in capsys.readouterr().err


def test_train_option_checks_come_before_any_work(tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    out = str(tmp_path / "m.skops")
    assert main(["train", "--train", str(train), "--hmm-param", "n_states=3", "-o", out]) == 1
    err = capsys.readouterr().err
    assert "--hmm-param need --hmm-states" in err and "read " not in err
    missing = str(tmp_path / "never-read.txt")
    assert main(["train", "--train", str(train), "--model", "majority", "--hmm-states", missing,
                 "-o", out]) == 1
    assert "reads words only" in capsys.readouterr().err


def test_tag_into_missing_directory_names_the_output(tmp_path, capsys):

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    model = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--model", "majority", "-o", str(model)]) == 0
    doc = tmp_path / "d.txt"
    doc.write_text("The IL-2 gene .")
    target = tmp_path / "nodir" / "out.jsonl"
    capsys.readouterr()
    assert main(["tag", str(model), str(doc), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert str(target) in err and ".tmp" not in err


@pytest.mark.slow
def test_train_tune_reports_and_saves_the_chosen_pipeline(tmp_path, capsys):
    from skbioner.datasets import load_jnlpba_sample
    from skbioner.io import load_model, write_columns

    sample = load_jnlpba_sample("train")
    corpus = sample.__class__(X=sample.X[:160], y=sample.y[:160], doc_ids=sample.doc_ids[:160],
                              path=None)
    train = tmp_path / "train.iob2"
    write_columns(train, corpus)
    out = tmp_path / "tuned.skops"
    assert main(["train", "--train", str(train), "--tune", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "chosen: " in err and "round 1:" in err
    # JNLPBA sentences are GENIA POS sentences: the bundled tagger would tag the held-out
    # ones in sample, so the POS column is not searched (96 of the 192 candidates)
    assert "96 candidate pipelines" in err and "POS column left out of the search" in err
    model = load_model(out)
    assert len(model.predict(sample.X[:3])) == 3
    assert main(["train", "--train", str(train), "--tune", "--hmm-states", str(train), "-o",
                 str(out)]) == 1
    assert "drop --hmm-states" in capsys.readouterr().err


def test_train_hmm_svm_with_knowledge_modules(tmp_path, capsys):
    from skbioner.io import load_model
    from skbioner.postprocess import PostProcessedTagger

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    names = tmp_path / "names.txt"
    names.write_text("IL-2\tprotein\nNF-kappaB\tprotein\n")
    out = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--model", "hmm-svm", "--param", "cv=2",
                 "--param", "n_jobs=1", "--abbreviations", "--alias", "--cascade-rules",
                 "--closed-dictionary", "--lexicons", str(names), "-o", str(out)]) == 0
    model = load_model(out)
    assert isinstance(model, PostProcessedTagger)
    assert [name for name, _ in model.steps_] == ["cascade", "abbreviations", "alias"]
    steps = model.tagger_.named_steps
    assert steps["dictionary"].annotation_names_ == ("dict_closed",)
    assert steps["lexicons"].types_ == ("protein",)
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(out), str(train), "-o", str(pred)]) == 0
    assert pred.read_text().count("\n") == TRAIN.count("\n")
    # the modules work with any model
    assert main(["train", "--train", str(train), "--model", "online-crf", "--abbreviations",
                 "-o", str(tmp_path / "o.skops")]) == 0
    capsys.readouterr()


def test_train_two_pass(tmp_path, capsys):
    """--two-pass stacks the model on its own out-of-fold first pass; the file loads safely."""
    from skbioner.ensemble import StackedTagger
    from skbioner.io import load_model, model_metadata

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    out = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--model", "online-crf", "--param",
                 "max_iter=2", "--two-pass", "--abbreviations", "-o", str(out)]) == 0
    model = load_model(out)
    assert isinstance(model.tagger_, StackedTagger)
    assert [name for name, _ in model.tagger_.estimators] == ["first_pass"]
    assert model_metadata(out)["options"]["two_pass"] is True
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(out), str(train), "-o", str(pred)]) == 0
    assert pred.read_text().count("\n") == TRAIN.count("\n")
    capsys.readouterr()


def test_train_two_pass_hmm_svm_uses_the_second_pass_weights(tmp_path, capsys):
    from skbioner.io import load_model

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    out = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--model", "hmm-svm", "--param", "cv=2",
                 "--param", "n_jobs=1", "--two-pass", "-o", str(out)]) == 0
    model = load_model(out)
    second = model.final_estimator_
    assert (second[-1].prior_weight, second[-1].transition_weight) == (0.4, 0.5)
    first = model.estimators_[0][-1]
    assert (first.prior_weight, first.cv) == (0.6, 2)  # the one-pass preset, with --param
    assert main(["train", "--train", str(train), "--model", "hmm-svm", "--param", "cv=2",
                 "--param", "prior_weight=1.0", "--two-pass", "-o", str(out)]) == 0
    assert load_model(out).final_estimator_[-1].prior_weight == 1.0  # a given --param wins
    capsys.readouterr()


def test_a_rejected_search_winner_is_printed_as_the_command_that_trains_it(tmp_path, capsys):
    """When noise keeps the preset, the winner's command line: parsed back, it asks for the
    winner's options."""
    import shlex

    from skbioner.cli._main import build_parser
    from skbioner.cli._options import rejected_winner_note, tagger_options

    winner = {"model": "online-crf", "scheme": "IOBES", "model_params": {"max_iter": 20},
              "feature_params": {"min_count": 1}, "word_classes": "bundled", "pos": True}
    decision = {"chosen": "default", "winner": "OnlinePACRF(IOBES) ...", "winner_f1": 0.7123,
                "default_f1": 0.7038, "delta_ci": [-0.002, 0.019], "winner_options": winner}
    err = rejected_winner_note(decision, "my train.iob2", "m.skops")
    assert "+0.85 points over the preset" in err and "-0.20 to +1.90" in err
    command = err.splitlines()[-1].strip()
    again = build_parser().parse_args(shlex.split(command)[1:])
    assert again.train == "my train.iob2" and again.output == "m.skops"
    assert again.model == "online-crf"
    assert tagger_options(again) == {k: v for k, v in winner.items() if k != "model"}
    for kept in ({**decision, "chosen": "winner"}, {**decision, "winner_f1": 0.70},
                 {**decision, "winner_options": None}):
        assert rejected_winner_note(kept, "my train.iob2", "m.skops") == ""


def test_train_dev_needs_tune(tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    assert main(["train", "--train", str(train), "--dev", str(train), "-o",
                 str(tmp_path / "m.skops")]) == 1
    assert "--dev is the development data of --tune" in capsys.readouterr().err


def test_info_top_explains_the_outside_segment_labels(toy_files, capsys):
    _, model = toy_files
    assert main(["info", str(model), "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "heaviest features of S-O" in out
    assert "B-O, I-O, E-O, S-O: the BIES scheme cuts the text outside entities" in out
