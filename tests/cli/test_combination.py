"""skbioner train --model vote|stack --members ..., and skbioner info showing the members."""

import json
import shlex

import pytest

from skbioner.cli import main, train_command
from skbioner.cli._main import build_parser
from skbioner.cli._options import tagger_options
from skbioner.ensemble import StackedTagger, VotingTagger
from skbioner.io import load_model, model_metadata
from skbioner.pipelines import COMBINATIONS, make_tagger
from tests.cli.conftest import TRAIN

MEMBERS = "online-crf:model_params={'max_iter': 2},online-crf:scheme=IOE2:name=ioe2"


def test_the_cli_offers_the_combinations():
    from skbioner.cli._options import COMBINATIONS as CLI

    assert CLI == COMBINATIONS


@pytest.mark.parametrize("options", [
    {"model": "vote", "members": "online-crf,cascaded", "combination_params": {"voting": "hard"}},
    {"model": "stack", "members": MEMBERS, "combination_params": {"cv": 3}},
    {"model": "hmm-svm", "two_pass": True, "first_pass": "online-crf,cascaded"},
])
def test_train_command_round_trips(options):
    argv = shlex.split(train_command("t.iob2", "m.skops", **options))
    args = build_parser().parse_args(argv[1:])
    model = options.pop("model")
    assert (args.model, tagger_options(args)) == (model, options)


def test_train_command_writes_member_dicts_as_specs():
    cmd = train_command("t", "m", model="vote",
                        members=[{"model": "online-crf", "scheme": "IOE2"}, "cascaded"])
    assert "--members online-crf:scheme=IOE2,cascaded" in cmd


def test_vote_and_stack_from_the_command_line(tmp_path, capsys):
    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    vote, stack = tmp_path / "vote.skops", tmp_path / "stack.skops"
    assert main(["train", "--train", str(train), "--model", "vote", "--members", MEMBERS
                 + ",majority", "--combination-param", "voting=hard", "-o", str(vote)]) == 0
    err = capsys.readouterr().err
    assert "[VotingTagger] ioe2: fitted" in err
    model = load_model(vote)
    assert isinstance(model, VotingTagger) and model.voting == "hard"
    assert list(model.named_estimators_) == ["online-crf-{'max_iter': 2}", "ioe2", "majority"] \
        or list(model.named_estimators_)[1:] == ["ioe2", "majority"]
    assert model.verbose == 0  # progress is not saved with the model
    assert model_metadata(vote)["options"]["members"].startswith("online-crf")
    assert main(["train", "--train", str(train), "--model", "stack", "--members", MEMBERS,
                 "--param", "max_iter=2", "--combination-param", "cv=2", "-q",
                 "-o", str(stack)]) == 0
    model = load_model(stack)
    assert isinstance(model, StackedTagger) and model.cv == 2
    assert model.final_estimator_[-1].max_iter == 2
    pred = tmp_path / "pred.iob2"
    assert main(["predict", str(stack), str(train), "-o", str(pred)]) == 0
    assert pred.read_text().count("\n") == TRAIN.count("\n")
    capsys.readouterr()
    assert main(["info", str(vote)]) == 0
    out = capsys.readouterr().out
    assert "combination: VotingTagger (" in out and "voting=hard" in out
    assert "member ioe2: features (TokenFeaturizer) -> model (OnlinePACRF)" in out
    assert main(["info", str(stack), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["combination"]["class"] == "StackedTagger"
    assert [m["name"] for m in info["members"]][1] == "ioe2"
    assert "fp_label" in info["features"]["columns"]


def test_bad_combinations():
    with pytest.raises(ValueError, match="needs members"):
        make_tagger("vote")
    with pytest.raises(ValueError, match="needs members"):
        make_tagger("stack")
    with pytest.raises(ValueError, match="members are the members"):
        make_tagger("online-crf", members="cascaded")
    with pytest.raises(ValueError, match="has no scheme"):
        make_tagger("vote", members="online-crf,cascaded", scheme="IOE2")
    with pytest.raises(ValueError, match="combination_params are"):
        make_tagger("online-crf", combination_params={"cv": 3})
    with pytest.raises(ValueError, match="same name"):
        make_tagger("vote", members="online-crf,online-crf")
    with pytest.raises(ValueError, match="cannot be a combination"):
        make_tagger("vote", members="vote,online-crf")
    with pytest.raises(ValueError, match="drop two_pass"):
        make_tagger("stack", members="online-crf", two_pass=True)
    # POS readers get the jackknife corpus
    vote = make_tagger("vote", members="online-crf,nerbio", pos_jackknife="pos.tsv")
    crf, nerbio = (m for _, m in vote.estimators)
    assert "pos" not in crf.named_steps and nerbio.named_steps["pos"].corpus == "pos.tsv"


def test_distil_a_vote_into_one_student_from_the_command_line(tmp_path, capsys):
    from skbioner.ensemble import DistilledTagger

    train = tmp_path / "train.iob2"
    train.write_text(TRAIN)
    unlabeled = tmp_path / "unlabeled.txt"
    # sentences of the training file (dropped: copies of gold) and new ones
    gold_sentences = ["The IL-2 gene in T cells .", "The p53 gene in B cells .",
                      "The TNF gene in HeLa cells ."]
    unlabeled.write_text("\n".join(gold_sentences + ["IL-2 binds here .",
                                                      "an unseen sentence ."]) + "\n")
    out = tmp_path / "student.skops"
    argv = ["train", "--train", str(train), "--model", "vote", "--members", MEMBERS,
            "--combination-param", "voting=soft", "--distill",
            "online-crf:model_params={'max_iter': 2}", "--unlabeled", str(unlabeled),
            "--distill-param", "min_confidence=0.0", "-o", str(out)]
    assert main(argv) == 0
    assert "student fitted" in capsys.readouterr().err
    model = load_model(out)
    assert isinstance(model, DistilledTagger) and isinstance(model.teacher, VotingTagger)
    assert model.student_[-1].max_iter == 2
    assert model.n_pseudo_sentences_ == 2 and model.removed_["exact"] == 3
    assert model_metadata(out)["options"]["distill"].startswith("online-crf")
    assert model_metadata(out)["options"]["unlabeled"] == str(unlabeled)
    assert "unlabeled" not in " ".join(model.get_params())  # the file holds no training data
    capsys.readouterr()
    assert main(["info", str(out)]) == 0  # the student is what the file holds
    assert "OnlinePACRF" in capsys.readouterr().out
    # the command line of the same options round-trips
    options = {"model": "vote", "members": MEMBERS, "distill": "online-crf",
               "unlabeled": "u.txt", "distill_params": {"max_tokens": 1000}}
    args = build_parser().parse_args(shlex.split(train_command("t", "m", **options))[1:])
    assert (args.model, args.unlabeled, tagger_options(args)) == (
        "vote", "u.txt", {k: v for k, v in options.items() if k not in ("model", "unlabeled")})
    # the output may not overwrite the unlabeled text; both options are needed
    capsys.readouterr()
    assert main(argv[:-1] + [str(unlabeled)]) != 0
    assert "the output is also an input" in capsys.readouterr().err
    for flag in ("--distill", "--unlabeled"):
        i = argv.index(flag)
        assert main(argv[:i] + argv[i + 2:]) != 0
        assert "--distill and --unlabeled go together" in capsys.readouterr().err
    with pytest.raises(ValueError, match="needs X_unlabeled"):  # the data goes to fit
        make_tagger("vote", members=MEMBERS, distill="online-crf").fit([["a"]], [["O"]])
