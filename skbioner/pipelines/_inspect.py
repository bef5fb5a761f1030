"""What a fitted model is, and which features weigh most for each label (``skbioner info``)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from ..base import final_estimator, unwrap

__all__ = ["describe_model", "top_features"]


def _parts(model):
    """``(steps, final)``: the ``(name, step)`` pairs before the model, and the model."""
    steps = list(getattr(unwrap(model), "steps", [("model", model)]))
    return steps[:-1], final_estimator(model)


def _featurizer(steps):
    for _, step in reversed(steps):
        if hasattr(step, "get_feature_names_out") and hasattr(step, "n_features_out_"):
            return step
    return None


def _settings(est):
    """The parameters of ``est`` that differ from its class defaults (estimators by name)."""
    from sklearn.base import BaseEstimator

    defaults = type(est)().get_params(deep=False)
    out = {}
    for k, v in est.get_params(deep=False).items():
        d = defaults.get(k)
        if isinstance(v, BaseEstimator):
            out[k] = {"class": type(v).__name__, **_settings(v)}
            continue
        same = v is d or (type(v) is type(d) and _equal(v, d))
        if not same:
            out[k] = v if isinstance(v, str | int | float | bool | type(None)) else repr(v)
    return out


def _equal(a, b):
    try:
        return bool(a == b)
    except Exception:  # arrays and the like: compare what they show
        return repr(a) == repr(b)


def _chain_summary(est):
    out = {"class": type(est).__name__}
    space = getattr(est, "label_space_", None)
    if space is not None:
        out["scheme"] = space.scheme
        out["extra_schemes"] = list(space.extra_schemes)
        out["labels"] = list(space.labels)
    elif hasattr(est, "scheme_"):
        out["scheme"] = est.scheme_
    coef = getattr(est, "coef_", None)
    if coef is not None:
        nnz = coef.nnz if sp.issparse(coef) else int(np.count_nonzero(coef))
        out["weights"] = {"shape": list(coef.shape), "nonzero": int(nnz),
                          "stored": "sparse float32" if sp.issparse(coef) else str(coef.dtype)}
    for attr in ("n_iter_", "temperature_", "oof_segment_f1_"):
        if hasattr(est, attr):
            out[attr.rstrip("_")] = float(getattr(est, attr))
    out["settings"] = _settings(est)
    return out


def describe_model(model):
    """What a fitted tagger (or pipeline) is: steps, entity types, scheme, features, settings.

    Parameters
    ----------
    model : estimator or Pipeline
        A fitted tagger, e.g. what ``skbioner train`` saves or
        :func:`skbioner.load_model` returns.

    Returns
    -------
    dict
        ``"steps"`` (``[{"name", "class"}]``), ``"model"`` (class,
        ``scheme``, ``extra_schemes``, chain ``labels``, ``weights`` shape and
        non-zero count, epochs run, temperature, the settings that differ
        from the defaults; a cascade also its ``segmenter`` and
        ``classifier``), ``"types"`` (entity types), ``"classes"`` (the
        labels ``predict`` returns), ``"confidences"`` (whether entities get
        probabilities), and ``"features"`` when a featurizer leads the model
        (templates, groups, number of features, cutoff, the annotation
        columns it reads); ``"lexicons"`` (the lexicon file, its SHA-256 and the
        names of each type read); ``"recut"`` (the ``cuts`` of a
        :class:`~skbioner.models.RecutTagger`, whose pipeline the rest
        describes); for a combination (:mod:`skbioner.ensemble`),
        ``"combination"`` (its class and settings) and ``"members"`` (each
        member's name and description), the rest describing a stack's
        second pass.

    Examples
    --------
    >>> from skbioner.pipelines import describe_model, make_tagger
    >>> pipe = make_tagger("online-crf", model_params={"max_iter": 2, "calibrate": False})
    >>> info = describe_model(pipe.fit([["IL-2", "gene"], ["T", "cells"]],
    ...                                [["B-DNA", "I-DNA"], ["B-cell_type", "I-cell_type"]]))
    >>> info["types"], info["model"]["scheme"], info["features"]["min_count"]
    (['DNA', 'cell_type'], 'BIES', 3)
    """
    inner = unwrap(model)
    if hasattr(inner, "named_estimators_") and hasattr(inner, "estimators"):
        return _cuts(model, _describe_combination(inner))
    steps, final = _parts(model)
    check_is_fitted(final)
    classes = [str(c) for c in getattr(final, "classes_", [])]
    types = sorted({c.split("-", 1)[1] for c in classes if c[:2] in ("B-", "I-")})
    named = list(getattr(unwrap(model), "steps", [("model", model)]))
    out = _cuts(model, {"steps": [{"name": n, "class": type(s).__name__} for n, s in named],
                        "types": types, "classes": classes,
                        "confidences": hasattr(final, "predict_entities"),
                        "model": _chain_summary(final)})
    for name in ("segmenter_", "classifier_"):
        if hasattr(final, name):
            out["model"][name.rstrip("_")] = _chain_summary(getattr(final, name))
    for _, step in steps:
        if hasattr(step, "lexicon_digest_"):  # a LexiconMatcher
            out["lexicons"] = {"source": str(step.lexicons), "sha256": step.lexicon_digest_,
                               "names": {t: int(n) for t, n in step.n_names_.items()}}
    fz = _featurizer(steps)
    if fz is not None:
        templates = fz.templates if isinstance(fz.templates, str) else "custom"
        out["features"] = {
            "class": type(fz).__name__, "templates": templates,
            "groups": list(fz.get_template_names()), "n_features": int(fz.n_features_out_),
            "min_count": fz.min_count,
            "mode": "vocabulary" if fz.n_features is None else f"hashing ({fz.n_features})",
            "columns": sorted({c for _, c in getattr(fz, "_columns", ())})}
    return out


def _cuts(model, out):
    """``out`` with how ``model`` cuts words: learned (``LearnedCutTagger``) or its
    ``RecutTagger``'s ``cuts``."""
    if hasattr(model, "cut_tagger_"):
        out["raw_cuts"] = "learned"
    elif hasattr(model, "split_tokens"):
        cuts = model.cuts
        out["recut"] = cuts if cuts is None or isinstance(cuts, str) else type(cuts).__name__
    return out


def _describe_combination(model):
    """:func:`describe_model` of a VotingTagger or StackedTagger."""
    check_is_fitted(model, "estimators_")
    settings = {k: (v if isinstance(v, str | int | float | bool | type(None)) else repr(v))
                for k, v in model.get_params(deep=False).items()
                if k not in ("estimators", "final_estimator", "steps", "verbose", "n_jobs")}
    members = [{"name": name, **describe_model(member)}
               for name, member in model.named_estimators_.items()]
    second = getattr(model, "final_estimator_", None)
    if second is not None:
        out = describe_model(second)
    else:
        classes = [str(c) for c in model.classes_]
        out = {"steps": [{"name": "vote", "class": type(model).__name__}],
               "types": sorted({c[2:] for c in classes if c != "O"}), "classes": classes,
               "confidences": True, "model": {"class": type(model).__name__,
                                              "settings": settings}}
    out["combination"] = {"class": type(model).__name__, "settings": settings}
    out["members"] = members
    return out


def _top(coef, names, labels, n):
    coef = coef.tocsc() if sp.issparse(coef) else np.asarray(coef)
    out = {}
    for k, label in enumerate(labels):
        col = coef[:, k].toarray().ravel() if sp.issparse(coef) else coef[:, k]
        nz = np.flatnonzero(col)  # none: no feature either way
        w = col[nz]
        order = np.argsort(-w, kind="stable")
        pos = [(str(names[nz[i]]), float(w[i])) for i in order[:n] if w[i] > 0]
        neg = [(str(names[nz[i]]), float(w[i])) for i in order[::-1][:n] if w[i] < 0]
        out[label] = {"positive": pos, "negative": neg}
    return out


def _names(fz, n_features):
    if fz is not None and fz.n_features is None and fz.n_features_out_ == n_features:
        return fz.get_feature_names_out()
    return np.asarray([f"column {i}" for i in range(n_features)], dtype=object)


def top_features(model, n=10):
    """The heaviest state features of every label of a chain model (as eli5 shows a CRF's).

    Reads the weights of :class:`~skbioner.models.OnlinePACRF` (``coef_``:
    one column per label of its internal scheme, e.g. ``B-protein`` ...
    ``S-protein`` for BIES) with the names the featurizer before it gives
    its columns (:meth:`~skbioner.features.TokenFeaturizer.get_feature_names_out`);
    for :class:`~skbioner.models.CascadedNER`, those of its segmenter and of
    its classifier (whose features are segment features: ``bag:``,
    ``head:``, ``first:`` token features, ``length:``, ``type:``).

    Parameters
    ----------
    model : Pipeline or estimator
        A fitted pipeline ending in a chain model (what ``skbioner train``
        saves), or the model itself (features are then named by column).
    n : int, default=10
        Features per label and sign.

    Returns
    -------
    dict of str -> dict
        For every label (``"segmenter B-ENT"``, ``"classifier B-protein"``
        for a cascade): ``{"positive": [(name, weight), ...], "negative":
        [...]}``, the ``n`` largest positive and the ``n`` most negative
        weights, strongest first.

    Raises
    ------
    TypeError
        For a model without chain weights (``CRFsuiteTagger``, ``MajorityTagger``).

    Examples
    --------
    >>> from skbioner.pipelines import make_tagger, top_features
    >>> X = [["IL-2", "gene"], ["T", "cells"]] * 3
    >>> y = [["B-DNA", "I-DNA"], ["B-cell_type", "I-cell_type"]] * 3
    >>> pipe = make_tagger("online-crf", model_params={"calibrate": False},
    ...                      feature_params={"min_count": 1}).fit(X, y)
    >>> top_features(pipe, n=1)["S-O"]["positive"]  # no single-token entity
    []
    >>> weights = dict(top_features(pipe, n=20)["B-DNA"]["positive"])
    >>> weights["w[0]=IL-2"] > 0
    True
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    steps, final = _parts(model)
    fz = _featurizer(steps)
    if hasattr(final, "segmenter_") and hasattr(final, "classifier_"):
        seg, cls = final.segmenter_, final.classifier_
        _check_chain(seg)
        _check_chain(cls)
        token_names = _names(fz, seg.coef_.shape[0])
        out = {f"segmenter {k}": v for k, v in
               _top(seg.coef_, token_names, seg.label_space_.labels, n).items()}
        seg_names = final.segment_featurizer_.get_feature_names_out(token_names)
        out.update({f"classifier {k}": v for k, v in
                    _top(cls.coef_, seg_names, cls.label_space_.labels, n).items()})
        return out
    _check_chain(final)
    return _top(final.coef_, _names(fz, final.coef_.shape[0]), final.label_space_.labels, n)


def _check_chain(est):
    if not (hasattr(est, "label_space_") or hasattr(est, "coef_")):
        if hasattr(est, "get_params") and not hasattr(est, "classes_"):
            check_is_fitted(est)
        raise TypeError(f"{type(est).__name__} has no chain weights (coef_) to show; "
                        "top_features reads OnlinePACRF and CascadedNER")
