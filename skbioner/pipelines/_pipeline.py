"""``TaggerPipeline``: a scikit-learn ``Pipeline`` that is a whole tagger."""

from __future__ import annotations

from sklearn.pipeline import Pipeline

from ..base import DelegatedOutputsMixin, head_transform

__all__ = ["TaggerPipeline"]


class TaggerPipeline(DelegatedOutputsMixin, Pipeline):
    """A ``Pipeline`` of annotators, a featurizer and a tagger, offered as one tagger.

    Exactly :class:`sklearn.pipeline.Pipeline` (fit, predict, score, grid
    search over ``<step>__<param>``), plus the final model's probability
    outputs after the steps before it: :meth:`predict_marginals` and
    :meth:`predict_entities`, so that
    ``make_tagger().fit(X, y).predict_entities(X)`` works without splitting
    the pipeline by hand.  Every pipeline :func:`~skbioner.pipelines.make_tagger`
    returns is one.

    Parameters
    ----------
    steps : list of (str, estimator)
    memory : str or object, default=None
    verbose : bool, default=False
        Time of each step on stdout (scikit-learn's format).
    transform_input : list of str, default=None
        As in :class:`sklearn.pipeline.Pipeline`.

    Examples
    --------
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.models import OnlinePACRF
    >>> from skbioner.pipelines import TaggerPipeline
    >>> pipe = TaggerPipeline([("features", TokenFeaturizer()),
    ...                        ("model", OnlinePACRF(max_iter=3, random_state=0))])
    >>> pipe = pipe.fit([["IL-2", "binds"]], [["B-protein", "O"]])
    >>> [(t, s, e) for t, s, e, p in pipe.predict_entities([["IL-2", "binds"]])[0]]
    [('protein', 0, 1)]
    """

    _delegate = "_final_estimator"

    def _delegated(self, X):
        """The final model, and ``X`` through the other steps."""
        Xt, final = head_transform(self, X)
        return final, Xt
