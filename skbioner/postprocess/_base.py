"""``PostProcessedTagger``: a tagger followed by document-level correction steps.

A step sees one *document* at a time (all sentences of an abstract, with
their tokens, annotation columns, the labels predicted so far and, when the
tagger has them, the token marginals) and returns corrected labels.  Steps
are fitted on the training data.  Document ids come with the sentences
(:attr:`skbioner.Sentence.doc_id`, set by every reader).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sklearn.base import BaseEstimator, clone
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import HasMethods, fit_context
from ..base import (
    LabelSequences,
    NamedComposition,
    SequenceTaggerMixin,
    classes_of,
    head_transform,
    split_pipeline,
)
from ..model_selection import document_keys
from ..schemes import labels_to_spans, repair, spans_to_labels

#: confidence :meth:`PostProcessedTagger.predict_entities` gives an entity that a step
#: created or changed (the steps are rules that override the tagger: a confidence
#: threshold keeps what they decided, as ``predict`` does)
STEP_CONFIDENCE = 1.0

__all__ = ["LabelledDocument", "PostprocessStep", "PostProcessedTagger", "apply_steps",
           "group_documents"]


@dataclass(frozen=True)
class LabelledDocument:
    """What a post-processing step sees of one document.

    Parameters
    ----------
    doc_id : str or None
        The document id (None: a sentence without one, alone in its document).
    sentences : tuple of Sentence
        The document's sentences, in input order, with their annotation columns.
    labels : tuple of list of str
        IOB2 labels predicted so far (by the tagger and the earlier steps).
    marginals : tuple of ndarray or None, default=None
        Per sentence, the tagger's token marginals ``(n_tokens, n_classes)``
        before any step (columns: :attr:`classes`); None when the tagger has
        no ``predict_marginals`` or the meta-estimator does not ask for them.
    classes : tuple of str or None, default=None
        Column labels of :attr:`marginals`.
    index : tuple of int, default=()
        Position of each sentence in the ``X`` given to ``predict``.
    retag : callable or None, default=None
        ``retag(sentences) -> labels``: the tagger's IOB2 predictions for other
        sentences (a step that tags a sentence without its parenthesised
        part); None unless a step declares ``uses_tagger``.
    """

    doc_id: str | None
    sentences: tuple
    labels: tuple
    marginals: tuple | None = None
    classes: tuple | None = None
    index: tuple = ()
    retag: object = None


def group_documents(X):
    """Sentence indices of each document, in order of first appearance.

    Sentences sharing a ``doc_id`` form one document (wherever they are in
    ``X``); a sentence without one is a document of its own.

    Parameters
    ----------
    X : list of Sentence

    Returns
    -------
    list of (str or None, list of int)
    """
    docs = {}
    for i, key in enumerate(document_keys(X)):  # ("", i): a sentence without an id
        docs.setdefault(key, []).append(i)
    return [(None if isinstance(key, tuple) else key, index) for key, index in docs.items()]


class PostprocessStep(BaseEstimator):
    """Base class of document-level correction steps.

    Subclasses implement :meth:`correct` and, when they learn from the
    training data, :meth:`fit`.  A step must not change the number of
    tokens, and returns well-formed IOB2 labels.
    """

    #: whether :meth:`correct` reads :attr:`LabelledDocument.marginals`
    uses_marginals = False
    #: whether :meth:`correct` calls :attr:`LabelledDocument.retag`
    uses_tagger = False

    def fit(self, X, y):
        """Learn from the training sentences ``X`` (with doc ids) and gold IOB2 ``y``.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str

        Returns
        -------
        self
        """
        if hasattr(self, "_parameter_constraints"):  # declared constraints, checked here
            self._validate_params()
        self.fitted_ = True
        return self

    def correct(self, doc: LabelledDocument) -> list:
        """Corrected IOB2 labels of ``doc``'s sentences.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
            One label list per sentence of ``doc``.
        """
        raise NotImplementedError


def _final_gives_entities(self):
    return hasattr(split_pipeline(getattr(self, "tagger_", self.tagger))[1], "predict_entities")


class PostProcessedTagger(SequenceTaggerMixin, NamedComposition):
    """A tagger whose predictions are corrected document by document.

    Parameters
    ----------
    tagger : estimator
        Any tagger of the suite taking sentences (usually a ``Pipeline``
        featurizer -> model, possibly with annotators).  Cloned in ``fit``.
    steps : list of (str, PostprocessStep)
        Applied in order at prediction; each is cloned and fitted on the
        training data.  Parameters tune through their names, e.g.
        ``GridSearchCV(pp, {"cascade__min_count": [5, 10]})``.

    Attributes
    ----------
    tagger_ : estimator
        The fitted tagger.
    steps_ : list of (str, PostprocessStep)
        The fitted steps.
    classes_ : ndarray of str
        The tagger's ``classes_``.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.models import OnlinePACRF
    >>> from skbioner.postprocess import AbbreviationResolver, PostProcessedTagger
    >>> train = load_jnlpba_sample("train")
    >>> pp = PostProcessedTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(random_state=0)),
    ...                          steps=[("abbreviations", AbbreviationResolver())])
    >>> pp = pp.fit(train.X[:200], train.y[:200])
    >>> len(pp.predict(train.X[:3]))
    3
    """

    _named = "steps"
    _parameter_constraints = {
        "tagger": [HasMethods(["fit", "predict"])],
        "steps": [list, tuple],
    }

    def __init__(self, tagger, steps=()):
        self.tagger = tagger
        self.steps = steps

    @fit_context
    def fit(self, X, y):
        """Fit the tagger and every step on the training sentences.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids, when known, in ``doc_id``).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : PostProcessedTagger
        """
        steps = self._checked_named(self.steps, "step", ("correct",))
        X, y = check_sentences(X, y, scheme="IOB2")
        self.tagger_ = clone(self.tagger).fit(X, y)
        self.steps_ = [(name, clone(step).fit(X, y)) for name, step in steps]
        self.classes_ = classes_of(self.tagger_)
        return self

    def predict(self, X):
        """Tag ``X`` and correct the labels document by document.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of str
            IOB2 labels.
        """
        return self._corrected(X, "predict")[1]

    def _corrected(self, X, method):
        """``(output, labels)``: the tagger's final step's ``method`` (``predict`` or
        ``predict_entities``) on ``X`` through its head, and its labels after the steps
        (which read that final step's marginals when they use them)."""
        check_is_fitted(self, "steps_")
        X = check_sentences(X)
        Xt, final = head_transform(self.tagger_, X)
        found = getattr(final, method)(Xt)
        labels = found if method == "predict" else [
            spans_to_labels([e[:3] for e in spans], len(s), "IOB2") for s, spans in zip(X, found)]
        steps = [step for _, step in self.steps_]
        marginals = classes = None
        if any(getattr(s, "uses_marginals", False) for s in steps) \
                and hasattr(final, "predict_marginals"):
            marginals, classes = final.predict_marginals(Xt), tuple(final.classes_)
        retag = self.tagger_.predict if any(getattr(s, "uses_tagger", False)
                                            for s in steps) else None
        return found, apply_steps(steps, X, labels, marginals, classes, retag)

    @available_if(_final_gives_entities)
    def predict_entities(self, X):
        """Entities after the steps, with the tagger's probability where it predicted them.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, confidence)`` of every entity of
            :meth:`predict` (half-open token offsets).  An entity the tagger
            predicted and the steps kept has the tagger's ``predict_entities``
            probability; one a step created or changed (other boundaries or
            class) has :data:`STEP_CONFIDENCE` (1.0).
        """
        spans, out = self._corrected(X, "predict_entities")
        result = []
        for found, lab in zip(spans, out):
            kept = {(t, a, b): p for t, a, b, p in found}
            result.append([(t, a, b, kept.get((t, a, b), STEP_CONFIDENCE))
                           for t, a, b in labels_to_spans(lab)])
        return result


def apply_steps(steps, X, labels, marginals=None, classes=None, retag=None):
    """Run fitted post-processing steps over the documents of ``X``.

    What :meth:`PostProcessedTagger.predict` does after tagging; public so
    that several settings of the steps can be compared on one set of
    predictions.

    Parameters
    ----------
    steps : list of PostprocessStep
        Fitted steps, applied in order.
    X : list of Sentence
    labels : list of list of str
        The tagger's IOB2 predictions.
    marginals : list of ndarray, optional
        The tagger's token marginals.
    classes : sequence of str, optional
        Columns of ``marginals``.
    retag : callable, optional
        The tagger's ``predict`` (:attr:`LabelledDocument.retag`), for steps with
        ``uses_tagger``.

    Returns
    -------
    list of list of str
    """
    labels = LabelSequences(list(lab) for lab in labels)
    if not steps:
        return labels
    classes = None if marginals is None else tuple(classes)
    for doc_id, index in group_documents(X):
        doc = LabelledDocument(doc_id, tuple(X[i] for i in index), tuple(labels[i] for i in index),
                       None if marginals is None else tuple(marginals[i] for i in index),
                       classes, tuple(index), retag)
        for step in steps:  # its labels checked to fit the document, repaired to IOB2
            new = [list(lab) for lab in step.correct(doc)]
            if len(new) != len(doc.sentences) or any(
                    len(lab) != len(s) for lab, s in zip(new, doc.sentences)):
                raise ValueError(f"{type(step).__name__}.correct returned labels that do not "
                                 f"fit document {doc.doc_id!r}")
            doc = replace(doc, labels=tuple(repair(lab, "IOB2") for lab in new))
        for i, lab in zip(index, doc.labels):
            labels[i] = lab
    return labels


def segments(n, spans):
    """``(start, end, type)`` of each entity of ``spans`` and ``(i, i + 1, None)`` of each of
    the ``n`` tokens outside them, in sentence order: a sentence read as entities and words
    (NERBio's collapsed sentences, the cascade rules' items)."""
    out, pos = [], 0
    for t, a, b in [*spans, (None, n, n)]:  # the sentinel: the words after the last entity
        out += [(i, i + 1, None) for i in range(pos, a)]
        if t is not None:
            out.append((a, b, t))
        pos = b
    return out
