"""``make_tagger``: the one system builder (``skbioner train`` builds with it).

A tagger is assembled in a fixed order, each layer optional:

1. the preset pipeline (:func:`preset_pipeline`): annotators (POS, HMM
   states), the featurizer, the model with the settings chosen on the
   development split;
2. the closed dictionary as features (:func:`add_knowledge`);
3. the second pass over a first pass (``two_pass``), or over several: a
   :class:`~skbioner.ensemble.StackedTagger` of one or more members, whose
   out-of-fold outputs and the knowledge modules are its features;
4. knowledge modules as document-level steps (:func:`add_knowledge`);
5. the words re-cut at hyphens and slashes the same way in training and
   tagging (``recut``: :class:`~skbioner.models.RecutTagger`).
"""

from __future__ import annotations

import ast

from ._presets import TWO_PASS_PARAMS, mapping, preset_pipeline, reads_pos

__all__ = ["COMBINATIONS", "add_knowledge", "make_members", "make_tagger", "parse_members",
           "parse_params"]

#: Models :func:`make_tagger` builds from several member taggers (``skbioner train --model
#: vote|stack --members ...``): a :class:`~skbioner.ensemble.VotingTagger` and a
#: :class:`~skbioner.ensemble.StackedTagger` whose second pass is the online-crf preset.
COMBINATIONS = ("vote", "stack")


def parse_params(items):
    """``["C=0.1", "scheme=BIES"]`` -> ``{"C": 0.1, "scheme": "BIES"}``.

    The command line's ``KEY=VALUE`` settings: a value is read as a Python
    literal (numbers, tuples, None...) and kept as a string otherwise.

    Parameters
    ----------
    items : iterable of str

    Returns
    -------
    dict
    """
    out = {}
    for item in items:
        key, sep, value = str(item).partition("=")
        if not sep or not key:
            raise ValueError(f"expected KEY=VALUE, got {item!r}")
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


def _split_top(text, sep):
    """``text`` cut at ``sep`` outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for k, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_members(spec):
    """``"online-crf,cascaded,online-crf:scheme=IOE2"`` -> the members' options.

    The command line's ``--members``: comma-separated members, each a preset
    name followed by ``:KEY=VALUE`` options of :func:`make_tagger` (values
    read as Python literals), ``name=`` naming the member.

    Parameters
    ----------
    spec : str

    Returns
    -------
    list of dict
        Per member, ``make_tagger`` options with ``model`` (and ``name``
        when given).

    Examples
    --------
    >>> parse_members("online-crf,cascaded:name=cascade,online-crf:scheme=IOE2")
    [{'model': 'online-crf'}, {'model': 'cascaded', 'name': 'cascade'}, \
{'model': 'online-crf', 'scheme': 'IOE2'}]
    """
    out = []
    for item in _split_top(str(spec), ","):
        if not item:
            raise ValueError(f"an empty member in {spec!r}")
        model, *options = _split_top(item, ":")
        out.append({"model": model, **parse_params(options)})
    return out


def make_members(members, *, pos_jackknife=None, n_jobs=1, verbose=0):
    """The named member taggers of a combination.

    Parameters
    ----------
    members : str or list
        A ``--members`` string (:func:`parse_members`), or a list whose items
        are such a member string, a dict of :func:`make_tagger` options (with
        ``model`` and optionally ``name``), or a ``(name, estimator)`` pair.
    pos_jackknife : str, optional
        The POS tagger's training corpus, given to the members that read the
        ``pos`` column and do not set it themselves (their training sentences
        then get out-of-fold parts of speech).
    n_jobs : int, default=1
        Threads/processes of each member (the combination runs members in
        parallel itself).
    verbose : int, default=0

    Returns
    -------
    list of (str, estimator)
        Unfitted members, named by their ``name`` or their preset and option
        values (``online-crf``, ``online-crf-IOE2``).
    """
    items = parse_members(members) if isinstance(members, str) else list(members)
    out = []
    for item in items:
        if isinstance(item, tuple):
            out.append(item)
            continue
        options = dict(parse_members(item)[0] if isinstance(item, str) else item)
        name = options.pop("name", None)
        model = options.pop("model", "online-crf")
        if model in COMBINATIONS:
            raise ValueError(f"a member cannot be a combination ({model!r})")
        if name is None:
            name = "-".join([model, *(str(v) for k, v in options.items()
                                      if not isinstance(v, dict))])
        if pos_jackknife is not None and "pos_jackknife" not in options and (
                options.get("pos") or reads_pos(model, options.get("model_params"))):
            options["pos_jackknife"] = pos_jackknife
        options.setdefault("n_jobs", n_jobs)
        options.setdefault("verbose", verbose)
        out.append((str(name), make_tagger(model, **options)))
    names = [n for n, _ in out]
    if len(set(names)) < len(names):
        raise ValueError(f"two members have the same name in {names}: give one a name= option")
    return out


def make_tagger(model="online-crf", *, scheme=None, model_params=None, feature_params=None,
                pos=False, pos_jackknife=None, hmm_states=None, hmm_params=None, two_pass=False,
                first_pass=None, abbreviations=False, alias=False, cascade_rules=False,
                closed_dictionary=False, recut=None, word_classes=None,
                lexicons=None, lexicon_types=None, members=None, combination_params=None,
                distill=None, distill_params=None, n_jobs=2, verbose=0):
    """A whole tagger, unfitted: what ``skbioner train`` trains from the same options.

    Every option of ``skbioner train`` is a keyword here (``--two-pass`` is
    ``two_pass=True``, ``--param C=0.05`` is ``model_params={"C": 0.05}``);
    benchmarks and tests build their systems with it too.

    Parameters
    ----------
    model : str, default="online-crf"
        A preset (:data:`PRESETS`; see :func:`preset_pipeline`), or a
        combination of ``members`` (:data:`COMBINATIONS`): ``"vote"``
        (:class:`~skbioner.ensemble.VotingTagger`), ``"stack"`` (the
        ``online-crf`` preset, ``two_pass=True, first_pass=members``).
    scheme : str, optional
        Internal segment representation; replaces the preset's scheme mix.
    model_params, feature_params : dict, optional
        Parameters of the model (nested names for the cascade:
        ``segmenter__C``) and of the :class:`~skbioner.features.TokenFeaturizer`.
    pos, pos_jackknife, hmm_states, hmm_params
        Annotation columns; see :func:`make_annotators`.
    word_classes, lexicons, lexicon_types : optional
        Word classes learned from unlabeled text, typed terminology names (``"bundled"``:
        the ones shipped with the package; or your own file) as features, and the lexicon
        types read (``"gene,disease"``; None: all); see :func:`make_annotators`.  With
        ``two_pass`` the first pass (a preset name) reads them too.
    two_pass : bool, default=False
        The tagger as the second pass of a :class:`~skbioner.ensemble.StackedTagger`, with
        the preset's second-pass settings (:data:`TWO_PASS_PARAMS`) under ``model_params``.
    first_pass : str, list or estimator, optional
        The stack's member with ``two_pass``: a preset name (with the same POS options) or
        any tagger; default: the tagger itself without the second-pass settings.  Several
        (a list, or a members string with commas or options: see ``members``).
    abbreviations, alias, cascade_rules, closed_dictionary
        Zhou & Su's knowledge modules; see :func:`add_knowledge`.
    recut : {None, "pieces", "jnlpba", "learned"}, default=None
        Wrap in :class:`~skbioner.models.RecutTagger` (``"pieces"``: cut at
        every hyphen and slash; ``"jnlpba"``: by the JNLPBA cut table), or
        (``"learned"``) in :class:`~skbioner.models.LearnedCutTagger`: the
        tagger reads the corpus's tokens as they are, and raw text is cut
        where a clone of it trained on sub-word pieces puts entity boundaries.
    members : str or list, optional
        The members of ``model="vote"`` or ``"stack"`` (:func:`make_members`):
        ``"online-crf,cascaded,hmm-svm"``, each optionally with ``:KEY=VALUE``
        options of this function (``"online-crf:scheme=IOE2"``);
        ``pos_jackknife`` reaches the members that read parts of speech.
    combination_params : dict, optional
        Parameters of the :class:`~skbioner.ensemble.VotingTagger` or
        :class:`~skbioner.ensemble.StackedTagger` (``weights``, ``cv``...).
    distill, distill_params : optional
        One student kept: :class:`~skbioner.ensemble.DistilledTagger` (``fit(X, y, X_unlabeled)``).
    n_jobs : int, default=2
        Threads/processes of the annotators and parallel models.
    verbose : int, default=0
        Progress on stderr: the model's epochs (1: a bar, 2: a line each);
        the pipeline's steps with their times.

    Returns
    -------
    estimator
        A :class:`TaggerPipeline`, a combination, or a wrapper around one
        (:class:`~skbioner.postprocess.PostProcessedTagger`, :class:`~skbioner.models.RecutTagger`,
        :class:`~skbioner.ensemble.DistilledTagger`); every one offers ``fit``, ``predict``,
        ``predict_entities`` and ``score``.

    Examples
    --------
    >>> from skbioner.pipelines import make_tagger
    >>> tagger = make_tagger("online-crf", model_params={"max_iter": 5}, abbreviations=True)
    >>> type(tagger).__name__, type(tagger.tagger[-1]).__name__
    ('PostProcessedTagger', 'OnlinePACRF')
    """
    if distill is not None or distill_params:
        return _distilled(**locals())
    if model == "vote":
        return _voting(**locals())
    combination_params = mapping("combination_params", combination_params)
    columns = dict(pos=pos, pos_jackknife=pos_jackknife, word_classes=word_classes,
                   lexicons=lexicons, lexicon_types=lexicon_types)
    if model == "stack":  # the online-crf preset, two passes with the members as first pass
        if members is None:
            raise ValueError("model='stack' needs members")
        if two_pass or first_pass is not None:
            raise ValueError("model='stack' is two passes over its members: drop two_pass and "
                             "first_pass (or use two_pass with first_pass=members)")
        model, two_pass, first_pass, members = "online-crf", True, members, None
    elif members is not None:
        raise ValueError("members are the members of model='vote' or 'stack'")
    model_params = mapping("model_params", model_params)
    feature_params = mapping("feature_params", feature_params)
    if model == "majority" and (hmm_states is not None or two_pass or recut or any(
            v not in (None, False) for v in [*columns.values(), abbreviations, alias,
                                             cascade_rules, closed_dictionary])):
        raise ValueError("the majority baseline reads words only: it takes no annotation, "
                         "word classes, lexicons, two-pass, knowledge module or recut option")
    if recut not in (None, "pieces", "jnlpba", "learned"):
        raise ValueError(f"recut must be None, 'pieces', 'jnlpba' or 'learned', got {recut!r}")
    if not two_pass and (first_pass is not None or combination_params):
        raise ValueError("first_pass is the first pass of two_pass=True; combination_params "
                         "are the parameters of model='vote', 'stack' or two_pass")
    tagger = preset_pipeline(model, scheme=scheme, model_params=model_params,
                             feature_params=feature_params, hmm_states=hmm_states,
                             hmm_params=hmm_params, n_jobs=n_jobs, verbose=verbose, **columns)
    first = two_pass and _first_passes(tagger, first_pass, columns, n_jobs=n_jobs,
                                       verbose=verbose)  # before the dictionaries of the second
    tagger = add_knowledge(tagger, closed_dictionary=closed_dictionary)
    if first:
        tagger = _second_pass(tagger, first, model, model_params, combination_params,
                              n_jobs=n_jobs, verbose=verbose)
    tagger = add_knowledge(tagger, abbreviations=abbreviations, alias=alias,
                           cascade_rules=cascade_rules)
    return _recut(tagger, recut)


def _recut(tagger, recut):
    """``tagger`` in the wrapper of the ``recut`` option (itself for None)."""
    if recut is None:
        return tagger
    from ..models import LearnedCutTagger, RecutTagger

    if recut == "learned":
        return LearnedCutTagger(tagger)
    return RecutTagger(tagger, cuts=None if recut == "pieces" else recut)


def _first_passes(tagger, first_pass, columns, *, n_jobs, verbose):
    """The named first passes of ``tagger``'s second pass: one (two-pass) or several (stack),
    a preset name built with the annotation ``columns`` options of the second."""
    from sklearn.base import clone

    if first_pass is None:  # the same pipeline (a fitted HMM step is shared, frozen)
        return [("first_pass", clone(tagger))]
    if isinstance(first_pass, list | tuple) or (isinstance(first_pass, str)
                                                and any(c in first_pass for c in ",:")):
        return make_members(first_pass, pos_jackknife=columns["pos_jackknife"], verbose=verbose)
    if isinstance(first_pass, str):
        first_pass = preset_pipeline(first_pass, n_jobs=n_jobs, **columns)
    return [("first_pass", first_pass)]


def _second_pass(tagger, first, model, model_params, combination_params, *, n_jobs, verbose):
    """``tagger`` with its preset's second-pass settings, stacked on the ``first`` passes."""
    from ..ensemble import StackedTagger

    # the preset's second-pass settings, under the ones given
    tagger[-1].set_params(**{k: v for k, v in TWO_PASS_PARAMS.get(model, {}).items()
                             if k not in model_params})
    # one first pass: its fits one after the other, as two passes always ran
    return StackedTagger(first, final_estimator=tagger, n_jobs=n_jobs if len(first) > 1 else None,
                         verbose=verbose, **combination_params)


def _distilled(distill, distill_params, **options):
    """``make_tagger(..., distill=student)``: the tagger of ``options`` distilled into it.

    The student reads raw text cut as the teacher does (``recut``) unless its
    own options say otherwise.
    """
    from ..ensemble import DistilledTagger

    if distill is None:
        raise ValueError("distill_params are the parameters of distill (the student)")
    student = dict(parse_members(distill)[0] if isinstance(distill, str) else distill)
    if options["recut"] is not None:
        student.setdefault("recut", options["recut"])
    [(_, student)] = make_members([student], pos_jackknife=options["pos_jackknife"],
                                  n_jobs=options["n_jobs"], verbose=options["verbose"])
    return DistilledTagger(make_tagger(**options), student, verbose=options["verbose"],
                           **mapping("distill_params", distill_params))


def _voting(members, combination_params, *, model, n_jobs, verbose, abbreviations, alias,
            cascade_rules, closed_dictionary, recut, pos_jackknife, **unused):
    """``make_tagger("vote", ...)``: the members' vote, with the wrappers that apply to it."""
    from ..ensemble import VotingTagger

    if members is None:
        raise ValueError("model='vote' needs members")
    given = sorted(k for k, v in unused.items() if v not in (None, False, {}))
    if given:
        raise ValueError(f"model='vote' has no {', '.join(given)}: give the members their "
                         "options (members='online-crf:scheme=IOE2,...')")
    if closed_dictionary:
        raise ValueError("the closed dictionary is features: give it to the members")
    tagger = VotingTagger(make_members(members, pos_jackknife=pos_jackknife, verbose=verbose),
                          n_jobs=n_jobs, verbose=verbose,
                          **mapping("combination_params", combination_params))
    tagger = add_knowledge(tagger, abbreviations=abbreviations, alias=alias,
                           cascade_rules=cascade_rules)
    return _recut(tagger, recut)


def add_knowledge(tagger, *, abbreviations=False, alias=False, cascade_rules=False,
                  closed_dictionary=False, jackknife=5):
    """A tagger with Zhou & Su's (2004) knowledge modules switched on.

    Works with any tagger of the suite (a preset pipeline or your own): the
    closed dictionary enters as an annotator before the featurizer (whose
    ``dictionary`` templates read its ``dict_closed`` column), the other
    modules as document-level post-processing steps.  An open dictionary
    is a lexicon file (``lexicons=`` of :func:`make_tagger`).

    Parameters
    ----------
    tagger : Pipeline or estimator
        The tagger (a ``Pipeline`` whose featurizer has ``dictionary``
        templates, for the closed dictionary).
    abbreviations : bool, default=False
        :class:`~skbioner.postprocess.AbbreviationResolver`.
    alias : bool, default=False
        :class:`~skbioner.postprocess.NameAlias`.
    cascade_rules : bool, default=False
        :class:`~skbioner.postprocess.CascadedEntityRules` mined from the
        training entities.
    closed_dictionary : bool, default=False
        The training entity names as a dictionary
        (:class:`~skbioner.annotate.LexiconMatcher` with
        ``lexicons="training"``), annotating the training sentences out of
        fold (``jackknife`` blocks of documents).
    jackknife : int, default=5
        Blocks of the closed dictionary's out-of-fold annotation.

    Returns
    -------
    estimator
        ``tagger`` itself when no module is on; otherwise the tagger with a
        ``LexiconMatcher`` step and/or wrapped in a
        :class:`~skbioner.postprocess.PostProcessedTagger` (steps in the
        order cascade rules, abbreviations, alias).
    """
    from sklearn.pipeline import Pipeline

    from ..annotate import LexiconMatcher
    from ..postprocess import (
        AbbreviationResolver,
        CascadedEntityRules,
        NameAlias,
        PostProcessedTagger,
    )
    from ._pipeline import TaggerPipeline

    if closed_dictionary:
        if not isinstance(tagger, Pipeline):
            raise ValueError("the closed dictionary needs a pipeline with a featurizer to read it")
        names = [name for name, _ in tagger.steps]
        at = names.index("features") if "features" in names else len(names) - 1
        matcher = LexiconMatcher("training", column="dict_closed", jackknife=jackknife)
        tagger = TaggerPipeline([*tagger.steps[:at], ("dictionary", matcher), *tagger.steps[at:]],
                                verbose=tagger.verbose)
    steps = []
    if cascade_rules:
        steps.append(("cascade", CascadedEntityRules()))
    if abbreviations:
        steps.append(("abbreviations", AbbreviationResolver()))
    if alias:
        steps.append(("alias", NameAlias()))
    return PostProcessedTagger(tagger, steps) if steps else tagger
