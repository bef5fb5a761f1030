"""skbioner.base: how the wrappers and pipelines of the suite are taken apart."""

from skbioner.base import final_estimator, split_pipeline, unwrap
from skbioner.models import OnlinePACRF, RecutTagger
from skbioner.pipelines import make_tagger
from skbioner.postprocess import NameAlias, PostProcessedTagger
from tests.models.toy import toy_sentences


def test_final_estimator_goes_through_every_wrapper():
    X, y = toy_sentences(20)
    pipe = make_tagger("online-crf", model_params={"max_iter": 2, "calibrate": False})
    wrapped = RecutTagger(PostProcessedTagger(pipe, [("a", NameAlias())])).fit(X, y)
    inner = unwrap(wrapped)
    assert [n for n, _ in inner.steps] == ["features", "model"]
    assert isinstance(final_estimator(wrapped), OnlinePACRF)
    assert final_estimator(wrapped) is inner[-1]
    model = OnlinePACRF(max_iter=1)
    assert unwrap(model) is model and final_estimator(model) is model
    assert split_pipeline(model) == (None, model)
