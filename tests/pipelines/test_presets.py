"""Presets: Python users get exactly what the command line trains."""

import pytest
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator

import skbioner
from skbioner.cli._train import build_model
from skbioner.datasets import load_jnlpba_sample
from skbioner.models import CascadedNER, MajorityTagger, OnlinePACRF
from skbioner.pipelines import PRESETS, make_pipeline


def params(est):
    return {k: v for k, v in clone(est).get_params().items()
            if k != "steps" and not hasattr(v, "get_params")}


@pytest.mark.parametrize("name", PRESETS)
def test_python_preset_equals_the_cli_pipeline(name):
    py, cli = make_pipeline(name), build_model(name)
    assert type(py) is type(cli) and params(py) == params(cli)
    assert skbioner.make_pipeline is make_pipeline


def test_options_reach_the_steps():
    pipe = make_pipeline("cascaded", scheme="IOBES", model_params={"segmenter__C": 0.5},
                         feature_params={"min_count": 1})
    seg = pipe[-1].segmenter
    assert isinstance(pipe[-1], CascadedNER) and isinstance(seg, OnlinePACRF)
    assert (seg.scheme, seg.extra_schemes, seg.C) == ("IOBES", (), 0.5)
    assert pipe.named_steps["features"].min_count == 1
    assert make_pipeline("online-crf")[-1].extra_schemes == ("IO",)
    assert isinstance(make_pipeline("majority"), MajorityTagger)
    with pytest.raises(ValueError, match="unknown model 'svm'"):
        make_pipeline("svm")
    with pytest.raises(ValueError, match="reads words only"):
        make_pipeline("majority", pos=True)
    with pytest.raises(TypeError, match="model_params must be a dict"):
        make_pipeline("online-crf", model_params=["C=1"])


def test_annotators_come_first_and_the_hmm_is_frozen():
    sample = load_jnlpba_sample("train")
    pipe = make_pipeline("online-crf", pos=True, hmm_states=[list(s) for s in sample.X[:200]],
                         hmm_params={"n_states": 4, "max_iter": 2, "tol": None})
    assert [n for n, _ in pipe.steps] == ["pos", "hmm", "features", "model"]
    assert isinstance(pipe.named_steps["hmm"], FrozenEstimator)
    assert pipe.named_steps["hmm"].estimator.n_states == 4
    pipe.fit(sample.X[:50], sample.y[:50])
    assert {"pos", "hmm"} <= set(pipe[:2].transform(sample.X[:1])[0].annotations)
    with pytest.raises(ValueError, match="hmm_params need hmm_states"):
        make_pipeline("online-crf", hmm_params={"n_states": 4})


def test_hmm_svm_preset_and_knowledge_modules():
    from skbioner.models import HMMSVMTagger
    from skbioner.pipelines import add_knowledge
    from skbioner.postprocess import PostProcessedTagger

    pipe = make_pipeline("hmm-svm", scheme="IOE2")
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
    from skbioner.cli._train import build_annotators

    pipe = make_pipeline("pairwise-svm")
    assert [n for n, _ in pipe.steps] == ["pos", "features", "model"]
    assert pipe.named_steps["features"].templates == "kazama"
    assert [n for n, _ in make_pipeline("pairwise-svm",
                                        model_params={"split_outside": None}).steps] == [
        "features", "model"]
    cli = build_model("pairwise-svm", annotators=build_annotators(pos=True))
    assert [n for n, _ in cli.steps] == ["pos", "features", "model"]
    with pytest.raises(ValueError, match="no scheme"):
        make_pipeline("pairwise-svm", scheme="IOBES")


@pytest.mark.parametrize("name", ["online-crf", "cascaded", "nerbio", "hmm-svm", "pairwise-svm"])
def test_every_seed_system_reads_the_word_classes(name):
    from skbioner.annotate import WordClassAnnotator

    sample = load_jnlpba_sample("train")
    params = {"max_iter": 2} if name in ("online-crf", "nerbio") else None
    pipe = make_pipeline(name, word_classes="bundled", model_params=params)
    assert pipe.steps[0][0] == "word_classes"
    assert isinstance(pipe.steps[0][1], WordClassAnnotator)
    pipe.fit(sample.X[:60], sample.y[:60])
    groups = {g.name for g in pipe.named_steps["features"].groups_}
    assert {"brown", "emb"} <= groups
    names = pipe.named_steps["features"].get_feature_names_out()
    assert any(n.startswith("brown10[0]=") for n in names)
    assert any(n.startswith("emb1024[0]=") for n in names)
    with pytest.raises(ValueError, match="reads words only"):
        make_pipeline("majority", word_classes="bundled")
