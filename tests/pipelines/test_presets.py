"""Presets: Python users get exactly what the command line trains."""

import pytest
from sklearn.base import clone

import skbioner
from skbioner.cli._main import build_parser
from skbioner.cli._options import tagger_options
from skbioner.datasets import load_jnlpba_sample
from skbioner.models import CascadedNER, MajorityTagger, OnlinePACRF
from skbioner.pipelines import PRESETS, make_tagger


def params(est):
    """The settings of ``est`` and of every estimator in it (not the estimators)."""
    def is_estimator(v):
        return hasattr(v, "get_params") or (
            isinstance(v, list) and any(isinstance(s, tuple) and hasattr(s[-1], "get_params")
                                        for s in v))
    return {k: v for k, v in clone(est).get_params().items() if not is_estimator(v)}


def cli_tagger(*argv):
    args = build_parser().parse_args(["train", "--train", "x", "-o", "y", *argv])
    return make_tagger(args.model, **tagger_options(args))


@pytest.mark.parametrize("name", PRESETS)
def test_python_preset_equals_the_cli_pipeline(name):
    py, cli = make_tagger(name), cli_tagger("--model", name)
    assert type(py) is type(cli) and params(py) == params(cli)
    assert skbioner.make_tagger is make_tagger


def test_the_cli_offers_every_preset():
    from skbioner.cli._options import MODELS

    assert MODELS == PRESETS


def test_every_cli_option_is_a_make_tagger_argument():
    cli = cli_tagger("--model", "hmm-svm", "--scheme", "IOE2", "--param", "C=0.5",
                     "--feature-param", "min_count=1", "--two-pass", "--abbreviations",
                     "--alias", "--recut", "pieces")
    py = make_tagger("hmm-svm", scheme="IOE2", model_params={"C": 0.5},
                     feature_params={"min_count": 1}, two_pass=True, abbreviations=True,
                     alias=True, recut="pieces")
    assert type(py) is type(cli) and params(py) == params(cli)


def test_options_reach_the_steps():
    pipe = make_tagger("cascaded", scheme="IOBES", model_params={"segmenter__C": 0.5},
                         feature_params={"min_count": 1})
    seg = pipe[-1].segmenter
    assert isinstance(pipe[-1], CascadedNER) and isinstance(seg, OnlinePACRF)
    assert (seg.scheme, seg.extra_schemes, seg.C) == ("IOBES", (), 0.5)
    assert pipe.named_steps["features"].min_count == 1
    assert make_tagger("online-crf")[-1].extra_schemes == ("IO",)
    assert isinstance(make_tagger("majority"), MajorityTagger)
    with pytest.raises(ValueError, match="unknown model 'svm'"):
        make_tagger("svm")
    for option in ({"pos": True}, {"two_pass": True}, {"alias": True}, {"recut": "pieces"}):
        with pytest.raises(ValueError, match="reads words only"):
            make_tagger("majority", **option)
    with pytest.raises(TypeError, match="model_params must be a dict"):
        make_tagger("online-crf", model_params=["C=1"])


def test_annotators_come_first_and_nothing_is_fitted_while_building(tmp_path):
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    sample = load_jnlpba_sample("train")
    unlabeled = tmp_path / "u.txt"
    unlabeled.write_text("".join(" ".join(s) + "\n" for s in sample.X[:200]))
    pipe = make_tagger("online-crf", pos=True, hmm_states=unlabeled, word_classes="bundled",
                       lexicons="bundled", hmm_params={"n_states": 4, "max_iter": 2,
                                                       "tol": None})
    assert [n for n, _ in pipe.steps] == ["lexicons", "word_classes", "pos", "hmm", "features",
                                          "model"]
    for _, step in pipe.steps:
        with pytest.raises(NotFittedError):
            check_is_fitted(step)
    assert pipe.named_steps["hmm"].n_states == 4
    pipe.fit(sample.X[:50], sample.y[:50])
    hmm = pipe.named_steps["hmm"]  # fitted on the file, not on the 50 labelled sentences
    assert "HTLV-I" in hmm.vocabulary_ and not {
        w for s in sample.X[:50] for w in s} >= set(hmm.vocabulary_)
    assert {"pos", "hmm"} <= set(pipe[:4].transform(sample.X[:1])[0].annotations)
    with pytest.raises(ValueError, match="hmm_params need hmm_states"):
        make_tagger("online-crf", hmm_params={"n_states": 4})
    with pytest.raises(TypeError, match="file of unlabeled sentences"):
        make_tagger("online-crf", hmm_states=[["a"]])


def test_hmm_svm_preset_and_knowledge_modules():
    from skbioner.models import HMMSVMTagger
    from skbioner.pipelines import add_knowledge
    from skbioner.postprocess import PostProcessedTagger

    pipe = make_tagger("hmm-svm", scheme="IOE2")
    assert isinstance(pipe[-1], HMMSVMTagger) and pipe[-1].scheme == "IOE2"
    assert add_knowledge(pipe) is pipe
    pp = add_knowledge(pipe, abbreviations=True, cascade_rules=True, closed_dictionary=True)
    assert isinstance(pp, PostProcessedTagger)
    assert [n for n, _ in pp.steps] == ["cascade", "abbreviations"]
    assert [n for n, _ in pp.tagger.steps] == ["dictionary", "features", "model"]
    assert pp.tagger.named_steps["dictionary"].jackknife == 5
    with pytest.raises(ValueError, match="pipeline"):
        add_knowledge(HMMSVMTagger(), closed_dictionary=True)


def test_pairwise_svm_preset_brings_its_pos_column():
    pipe = make_tagger("pairwise-svm")
    assert [n for n, _ in pipe.steps] == ["pos", "features", "model"]
    assert pipe.named_steps["features"].templates == "kazama"
    # its features read the POS window whatever the O split (the preset's own is None)
    assert [n for n, _ in make_tagger("pairwise-svm",
                                        model_params={"split_outside": None}).steps] == [
        "pos", "features", "model"]
    cli = cli_tagger("--model", "pairwise-svm", "--pos")
    assert [n for n, _ in cli.steps] == ["pos", "features", "model"]
    with pytest.raises(ValueError, match="no scheme"):
        make_tagger("pairwise-svm", scheme="IOBES")


@pytest.mark.parametrize("options", [
    {},
    {"model": "hmm-svm", "two_pass": True, "first_pass": "online-crf"},
    {"model": "cascaded", "scheme": "IOBES", "model_params": {"segmenter__C": 0.5, "n_folds": 3},
     "feature_params": {"min_count": 1}, "pos_jackknife": "genia pos/train.tsv"},
    {"abbreviations": True, "alias": True, "cascade_rules": True, "closed_dictionary": True,
     "lexicons": "names.txt", "recut": "jnlpba", "pos": True},
    {"word_classes": "classes.tsv.gz"},
])
def test_train_command_round_trips_through_the_parser(options):
    import shlex

    from skbioner.cli import train_command

    argv = shlex.split(train_command("t.iob2", "m.skops", **options))
    args = build_parser().parse_args(argv[1:])
    model = options.pop("model", "online-crf")
    assert (args.model, tagger_options(args)) == (model, options)


@pytest.mark.parametrize("name", ["online-crf", "cascaded", "nerbio", "hmm-svm", "pairwise-svm"])
def test_every_seed_system_reads_the_word_classes(name):
    from skbioner.annotate import WordClassAnnotator

    sample = load_jnlpba_sample("train")
    params = {"max_iter": 2} if name in ("online-crf", "nerbio") else None
    pipe = make_tagger(name, word_classes="bundled", model_params=params)
    assert pipe.steps[0][0] == "word_classes"
    assert isinstance(pipe.steps[0][1], WordClassAnnotator)
    pipe.fit(sample.X[:60], sample.y[:60])
    groups = {g.name for g in pipe.named_steps["features"].groups_}
    assert {"brown", "emb"} <= groups
    names = pipe.named_steps["features"].get_feature_names_out()
    assert any(n.startswith("brown10[0]=") for n in names)
    assert any(n.startswith("emb1024[0]=") for n in names)
    with pytest.raises(ValueError, match="reads words only"):
        make_tagger("majority", word_classes="bundled")
