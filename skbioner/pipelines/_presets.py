"""The suite's tuned pipelines by name: what ``skbioner train --model NAME`` builds.

Each preset is a ``Pipeline`` of optional annotators (POS, HMM states), the
featurizer and a model, with the settings chosen on the JNLPBA development
split (the last 10% of the training abstracts) and checked on BioNLP13CG's
development file; ``docs/lab/benchmarks.md`` gives the runs behind each choice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

__all__ = ["PRESETS", "TWO_PASS_PARAMS", "make_annotators", "preset_pipeline"]

#: Names accepted by :func:`make_tagger` (and ``skbioner train --model``).
PRESETS = ("online-crf", "cascaded", "crfsuite", "majority", "nerbio", "hmm-svm",
           "pairwise-svm")

#: NERBio's word conjunctions and numeral normalization, chosen on the JNLPBA development
#: split (benchmarks/nerbio.py; docs/lab/benchmarks.md): ``w-1&w1`` and per-digit numerals
#: (78.37 dev F1); with RuleChunker's chunks 78.70, the preset; the selection re-run with the
#: chunks over the paper's 21 word pairs adds ``w0&w1`` (78.37 at 10 epochs).  Every
#: difference is inside re-training noise (about 0.4).  The pattern post-processor is not
#: part of the preset: no setting of it raised dev F1.
NERBIO_CONJUNCTIONS = ("w-1&w1",)
NERBIO_NUMERALS = "digit"

#: Featurizer settings of presets that do not use the default (Chan/Settles, cutoff 3).
_FEATURES = {"hmm-svm": {"templates": "chan", "min_count": 3},
             "pairwise-svm": {"templates": "kazama", "min_count": 3}}

#: Model settings of a preset used as the second pass of ``make_tagger(two_pass=True)``
#: (``skbioner train --two-pass``): HMMSVMTagger's prior and tag-model weights, best on the
#: development split's grid for every first-pass column set (benchmarks/archive/two_pass.py:
#: 79.21 against 79.00 at the one-pass preset's 0.6 / 1.0).
TWO_PASS_PARAMS = {"hmm-svm": {"prior_weight": 0.4, "transition_weight": 0.5}}

#: HMM states of the ``hmm`` column: 40, chosen on the development split
#: (``benchmarks/archive/annotations_dev.py --n-states``); the paper's 160 were worse there.
HMM_STATES = 40


def _model(name):
    from .. import models as m

    chain = {"scheme": "BIES", "extra_schemes": ("IO",), "C": 0.1, "max_iter": 10}
    presets = {
        # BIES with IO trained jointly and folded, C and epochs: benchmarks/archive/tune_dev.py;
        # calibrated confidences (a held-out temperature): benchmarks/calibration.py; its
        # held-out model trains beside the final one (n_jobs=2)
        "online-crf": lambda: m.OnlinePACRF(**chain, calibrate=True, random_state=0, n_jobs=2),
        # stage 2 strongly regularised (C=0.003, 5 epochs): chosen on dev
        "cascaded": lambda: m.CascadedNER(segmenter=m.OnlinePACRF(**chain),
                                          classifier=m.OnlinePACRF(C=0.003, max_iter=5),
                                          random_state=0, n_jobs=2),
        "crfsuite": m.CRFsuiteTagger,
        "majority": m.MajorityTagger,
        # Zhou & Su (2004); BIES (+4.4 F1 over IOB2) and the prior weight (0.6: +1.4 over
        # the paper's 1.0) chosen on dev: benchmarks/hmm_svm.py
        "hmm-svm": lambda: m.HMMSVMTagger(scheme="BIES", C=0.1, cv=2, refit=False,
                                          prior_weight=0.6, random_state=0, n_jobs=2),
        # the online-crf settings on NERBio's features
        "nerbio": lambda: m.OnlinePACRF(**chain, random_state=0),
        # Kazama et al. 2002: d=2, greedy with pc-1, pc-2; the degree-2 kernel as explicit
        # features (minutes on a whole corpus, issue 26).  Chosen on the
        # JNLPBA dev split (benchmarks/pairwise_svm.py dev, docs/lab/benchmarks.md): C, gamma,
        # the preceding-class conjunctions, greedy over Viterbi, and O not split (on 1,800
        # abstracts splitting O by POS cost 0.5 F1 and tagged 2.4x slower)
        "pairwise-svm": lambda: m.PairwiseSVMTagger(gamma=0.1, coef0=1.0, C=0.25,
                                                    conjunctions="pc", split_outside=None,
                                                    n_jobs=2, random_state=0),
    }
    make = presets.get(name) if isinstance(name, str) else None
    if make is None:
        raise ValueError(f"unknown model {name!r}; presets: {', '.join(PRESETS)}")
    return make()


def mapping(name, value):
    """``value`` (a dict, or None for none) as a new dict; TypeError naming ``name`` else."""
    if value is not None and not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict, got {type(value).__name__}")
    return dict(value or {})


def reads_pos(model, model_params=None):
    """Whether a preset reads the ``pos`` column whatever its options.

    NERBio's features do; so does the pairwise SVM, whose ``kazama``
    features read the POS of the window whatever ``split_outside`` says
    (splitting the outside class by POS reads it too).

    Parameters
    ----------
    model : str
    model_params : dict, optional

    Returns
    -------
    bool
    """
    del model_params  # no option of these presets stops them reading it
    return model in ("nerbio", "pairwise-svm")


def _split_types(value):
    """``lexicon_types`` as a tuple of type names, or None (all): a list, or a string of
    names separated by ``,`` or ``+`` (``+`` inside a members string)."""
    if value is None or isinstance(value, list | tuple):
        return None if value is None else tuple(value)
    return tuple(t for t in re.split(r"[,+]", str(value)) if t.strip())


def make_annotators(pos=False, pos_jackknife=None, hmm_states=None, hmm_params=None,
                    n_jobs=2, verbose=0, word_classes=None, lexicons=None, lexicon_types=None):
    """Pipeline steps that add the ``pos``, ``hmm``, word-class and lexicon columns.

    Nothing is fitted here: each step fits with the pipeline (the HMM-state
    clusterer on the file ``hmm_states``, whatever the labelled sentences;
    the word classes and lexicons load their files).

    Parameters
    ----------
    pos : bool, default=False
        Add the bundled GENIA part-of-speech tagger.
    pos_jackknife : str or None, default=None
        The POS tagger's own training corpus (``genia-pos/train.tsv``): the
        training sentences it has seen are tagged out of fold (implies
        ``pos``).
    hmm_states : str or path, optional
        A file of unlabeled sentences (one per line, tokens separated by
        spaces) to fit the HMM states on.
    hmm_params : dict, optional
        :class:`~skbioner.annotate.HMMStateClusterer` parameters overriding
        the preset's (40 states).
    n_jobs : int, default=2
        Threads of the POS jackknife and the HMM's E-step.
    verbose : int, default=0
    word_classes : "bundled", str, path or None, default=None
        Word classes learned from unlabeled text
        (:class:`~skbioner.annotate.WordClassAnnotator`): ``"bundled"``, the
        classes shipped with the package, or a table written by
        ``skbioner clusters``; the features of every preset read their
        ``brown`` and ``emb*`` columns.
    lexicons : "bundled", str, path or None, default=None
        Typed terminology names (:class:`~skbioner.annotate.LexiconMatcher`):
        ``"bundled"``, the lexicons shipped with the package, or a lexicon
        file; the features of every preset read its ``lex`` column.
    lexicon_types : str, list or None, default=None
        The lexicon types to read (``"gene,disease"``; None: all).

    Returns
    -------
    list of (str, transformer)
    """
    from ..annotate import HMMStateClusterer, LexiconMatcher, POSTagger, WordClassAnnotator

    steps = []
    if lexicons is not None:
        steps.append(("lexicons", LexiconMatcher(lexicons, types=_split_types(lexicon_types))))
    elif lexicon_types is not None:
        raise ValueError("lexicon_types need lexicons (\"bundled\" or a lexicon file)")
    if word_classes is not None:
        steps.append(("word_classes", WordClassAnnotator(classes=word_classes)))
    if pos or pos_jackknife:
        steps.append(("pos", POSTagger(jackknife=5 if pos_jackknife else None,
                                       corpus=pos_jackknife, n_jobs=n_jobs)))
    if hmm_states is not None:
        if not isinstance(hmm_states, str | os.PathLike):
            raise TypeError("hmm_states is a file of unlabeled sentences (one per line), got "
                            f"{type(hmm_states).__name__}; to fit on sentences in memory, put "
                            "a fitted HMMStateClusterer in the pipeline yourself")
        hmm = HMMStateClusterer(n_states=HMM_STATES, random_state=0, n_jobs=n_jobs,
                                verbose=int(verbose), unlabeled=str(hmm_states))
        steps.append(("hmm", hmm.set_params(**dict(hmm_params or {}))))
    elif hmm_params:
        raise ValueError("hmm_params need hmm_states (the unlabeled sentences to fit on)")
    return steps


def preset_pipeline(model="online-crf", *, scheme=None, model_params=None, feature_params=None,
                    pos=False, pos_jackknife=None, hmm_states=None, hmm_params=None, verbose=0,
                    n_jobs=2, word_classes=None, lexicons=None, lexicon_types=None):
    """The tuned pipeline of a preset: annotators, featurizer and model.

    The first layer of :func:`~skbioner.pipelines.make_tagger`, which calls
    it with the same arguments (use ``make_tagger``).

    Builds exactly what ``skbioner train --model MODEL`` trains: the
    Chan/Settles features with a frequency cutoff of 3 (chosen on the
    development split: as good as no cutoff with 7 times fewer features) and
    the preset's model settings.

    Parameters
    ----------
    model : str, default="online-crf"
        One of :data:`PRESETS`:
        ``"online-crf"``: :class:`~skbioner.models.OnlinePACRF`, BIES with IO
        folded in, C=0.1, 10 epochs, calibrated confidences.  ``"cascaded"``:
        :class:`~skbioner.models.CascadedNER` with that segmenter and a
        strongly regularised classifier (C=0.003, 5 epochs).
        ``"crfsuite"``: :class:`~skbioner.models.CRFsuiteTagger` (L-BFGS).
        ``"majority"``: the memorising baseline (no featurizer).
        ``"hmm-svm"``: :class:`~skbioner.models.HMMSVMTagger` (Zhou & Su
        2004; its knowledge modules: :func:`add_knowledge`).
        ``"nerbio"``: NERBio (Tsai et al. 2006) with the online CRF's
        settings: :class:`~skbioner.annotate.RuleChunker`'s chunks and
        :class:`~skbioner.text.NumericNormalizer`, then the ``nerbio``
        singletons with the word conjunctions chosen on the development
        split (:data:`NERBIO_CONJUNCTIONS`); it reads the
        ``pos`` column, so the POS tagger is always added (``pos_jackknife``
        to tag the training sentences out of fold).
        ``"pairwise-svm"``: :class:`~skbioner.models.PairwiseSVMTagger`
        after Kazama et al. 2002 (degree-2 polynomial kernel as explicit
        features, the ``kazama`` features, which read the ``pos`` column, so
        the POS tagger is always added; ``O`` not split, chosen on dev).
    scheme, model_params, feature_params, pos, pos_jackknife, hmm_states, hmm_params, \
verbose, n_jobs, word_classes, lexicons, lexicon_types
        As in :func:`~skbioner.pipelines.make_tagger`.

    Returns
    -------
    TaggerPipeline or MajorityTagger
        Unfitted, except for a frozen HMM-state step.

    Examples
    --------
    >>> from skbioner.pipelines import make_tagger
    >>> pipe = make_tagger("online-crf", model_params={"max_iter": 5})
    >>> [name for name, _ in pipe.steps], pipe[-1].scheme, pipe[-1].max_iter
    (['features', 'model'], 'BIES', 5)
    """
    from ..features import TokenFeaturizer
    from ._pipeline import TaggerPipeline

    settings = mapping("model_params", model_params)
    feature_params = mapping("feature_params", feature_params)
    hmm_params = mapping("hmm_params", hmm_params)
    est = _model(model)
    if model == "majority":  # make_tagger refuses the options it cannot read
        return est.set_params(**settings)
    if model == "pairwise-svm" and scheme is not None:
        raise ValueError("pairwise-svm tags with IOB2 classes: it has no scheme option")
    # presets that read the POS column bring the POS tagger (NERBio's features; the
    # pairwise SVM's kazama features, chosen with POS on dev, and its outside class when
    # split by part of speech; model_params split_outside=None leaves POS to the user)
    pos = pos or (reads_pos(model, settings) and pos_jackknife is None)
    if scheme is not None:
        prefix = "segmenter__" if model == "cascaded" else ""
        settings.setdefault(prefix + "scheme", scheme)
        if model not in ("crfsuite", "hmm-svm"):  # a chosen scheme replaces the scheme mix
            settings.setdefault(prefix + "extra_schemes", ())
    if verbose:
        settings.setdefault("verbose", verbose)
    est.set_params(**settings)
    featurizer = TokenFeaturizer(templates="chan", min_count=3)
    prep = []
    if model == "nerbio":
        from ..annotate import RuleChunker
        from ..features import get_preset
        from ..text import NumericNormalizer

        exclude = tuple(g.name for g in get_preset("nerbio")
                        if g.kind == "conjunction" and g.name not in NERBIO_CONJUNCTIONS)
        featurizer = TokenFeaturizer(templates="nerbio", exclude=exclude, min_count=3)
        prep = [("chunks", RuleChunker()), ("numerals", NumericNormalizer(mode=NERBIO_NUMERALS))]
    featurizer.set_params(**_FEATURES.get(model, {}))
    featurizer.set_params(**feature_params)
    annotators = make_annotators(pos, pos_jackknife, hmm_states, hmm_params, n_jobs, verbose,
                                 word_classes, lexicons, lexicon_types)
    return TaggerPipeline([*annotators, *prep, ("features", featurizer), ("model", est)],
                          verbose=bool(verbose))
