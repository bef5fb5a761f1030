"""The tagger options of the command line, and ``make_tagger``'s arguments they are.

``skbioner train``'s model, annotation and knowledge options are the keyword
arguments of :func:`skbioner.pipelines.make_tagger` (``--two-pass`` is
``two_pass=True``, ``--param C=0.05`` is ``model_params={"C": 0.05}``):
:func:`add_tagger_arguments` declares them, :func:`tagger_options` reads them
back as arguments and :func:`train_command` writes the command for given
arguments.
"""

#: ``--flag`` -> make_tagger's boolean argument of the same name
_SWITCHES = ("pos", "two_pass", "abbreviations", "alias", "cascade_rules", "closed_dictionary")
#: make_tagger's arguments whose option is not ``--`` + the name with dashes (and
#: ``--unlabeled``, the ``X_unlabeled`` of the distilled tagger's ``fit``)
FLAGS = {"hmm_params": "--hmm-param", "model_params": "--param",
         "feature_params": "--feature-param", "combination_params": "--combination-param",
         "distill_params": "--distill-param",
         **{k: "--" + k.replace("_", "-") for k in (
             "scheme", "pos", "pos_jackknife", "hmm_states", "recut", "two_pass",
             "first_pass", "members", "word_classes", "lexicons", "lexicon_types", "distill",
             "unlabeled")}}
#: the options that name input files (beside --train): an output may not be one of them
INPUTS = ("pos_jackknife", "hmm_states", "word_classes", "lexicons", "unlabeled")
#: make_tagger's dict arguments, given as repeatable KEY=VALUE options
_PARAMS = ("model_params", "feature_params", "hmm_params", "combination_params",
           "distill_params")

#: skbioner.pipelines.PRESETS (kept here so that --help imports no model code; a test
#: checks that they agree)
MODELS = ("online-crf", "cascaded", "crfsuite", "majority", "nerbio", "hmm-svm",
          "pairwise-svm")
#: skbioner.pipelines.COMBINATIONS (the same test checks them)
COMBINATIONS = ("vote", "stack")


def add_tagger_arguments(p):
    """The model, annotation and knowledge option groups of ``skbioner train``."""
    m = p.add_argument_group("model")
    m.add_argument("--model", choices=MODELS + COMBINATIONS, default="online-crf",
                   help="a preset, or a combination of --members: vote (their entities put to a "
                        "vote) or stack (an online-crf second pass over their outputs)")
    m.add_argument("--scheme", default=None, help="internal segment representation (BIES...)")
    m.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="model parameter, repeatable (C=0.05, segmenter__C=0.1)")
    m.add_argument("--feature-param", action="append", default=[], metavar="KEY=VALUE",
                   help="featurizer parameter, repeatable (min_count=2)")
    m.add_argument("--tune", action="store_true",
                   help="choose model, scheme, epochs, cutoff, POS, word classes and lexicons on "
                        "held-out documents (successive halving; the preset is kept unless "
                        "beaten beyond noise)")
    m.add_argument("--dev", default=None, metavar="PATH",
                   help="with --tune: score the candidates on this development corpus (your "
                        "devel split, same format as --train) instead of the last training "
                        "documents; the model is trained on --train alone")
    a = p.add_argument_group("annotations read as features")
    a.add_argument("--pos", action="store_true", help="the bundled GENIA POS tagger")
    a.add_argument("--pos-jackknife", metavar="POS_TRAIN", default=None,
                   help="the POS tagger's training corpus: its sentences tagged out of fold")
    a.add_argument("--hmm-states", metavar="UNLABELED", default=None,
                   help="HMM states fitted on these unlabeled sentences (Kazama et al.)")
    a.add_argument("--hmm-param", action="append", default=[], metavar="KEY=VALUE")
    a.add_argument("--word-classes", nargs="?", const="bundled", default=None,
                   metavar="CLASSES",
                   help="word classes from unlabeled text: the ones shipped with the package, "
                        "or a table written by `skbioner clusters`")
    a.add_argument("--lexicons", nargs="?", const="bundled", default=None, metavar="LEXICON",
                   help="typed terminology names (genes, chemicals, diseases, species, "
                        "cells...): the lexicons shipped with the package, or a file of "
                        "name<TAB>type lines")
    a.add_argument("--lexicon-types", default=None, metavar="TYPE[,TYPE...]",
                   help="the lexicon types to read (default: all; the bundled ones: anatomy, "
                        "cell_line, cell_type, cellular_component, chemical, disease, gene, "
                        "nucleic_acid, phenotype, protein, species)")
    k = p.add_argument_group("knowledge (Zhou & Su 2004) and composition")
    k.add_argument("--two-pass", action="store_true",
                   help="stack on an out-of-fold first pass (the same model by default)")
    k.add_argument("--first-pass", default=None, metavar="MODEL[,MODEL...]",
                   help="its first pass (a preset; several, as --members: stacked)")
    k.add_argument("--members", default=None, metavar="MODEL[:KEY=VALUE...],...",
                   help="members of --model vote|stack: presets, each with make_tagger options "
                        "(online-crf,cascaded,online-crf:scheme=IOE2:name=ioe2)")
    k.add_argument("--combination-param", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of the vote or the stack, repeatable (voting=hard, cv=3)")
    k.add_argument("--distill", default=None, metavar="MODEL[:KEY=VALUE...]",
                   help="keep one fast student (a member, as in --members) trained on the "
                        "corpus and on the --unlabeled text labelled by the model the other "
                        "options build (e.g. --model vote ... --distill "
                        "online-crf:word_classes=bundled)")
    k.add_argument("--unlabeled", default=None, metavar="SENTENCES",
                   help="unlabeled text of --distill: one sentence per line (.gz too); its "
                        "sentences that copy a training sentence are dropped")
    k.add_argument("--distill-param", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of the distillation, repeatable (max_tokens=500000, "
                        "min_confidence=0.5)")
    k.add_argument("--abbreviations", action="store_true",
                   help="abbreviations take their long form's class")
    k.add_argument("--alias", action="store_true", help="aliases of earlier entities")
    k.add_argument("--cascade-rules", action="store_true", help="rules mined from entities")
    k.add_argument("--closed-dictionary", action="store_true",
                   help="the training names as features (out of fold)")
    k.add_argument("--recut", choices=("auto", "none", "pieces", "jnlpba", "learned"),
                   default="auto",
                   help="re-cut words at hyphens and slashes in training and tagging alike; "
                        "auto (default): pieces when the corpus cuts at every hyphen; "
                        "learned: train on the tokens as given, and cut raw text where a "
                        "second model, of sub-word pieces, puts entity boundaries")


def tagger_options(args):
    """``make_tagger``'s keyword arguments from the parsed command line."""
    if getattr(args, "dev", None) is not None and not args.tune:
        raise ValueError("--dev is the development data of --tune: add --tune (or drop --dev)")
    from ..pipelines import parse_params

    if (args.distill is None) != (args.unlabeled is None):
        raise ValueError("--distill and --unlabeled go together: the student, and the text "
                         "the model of the other options labels for it")
    options = {name: True for name in _SWITCHES if getattr(args, name)}
    for name in ("scheme", "first_pass", "members", "pos_jackknife", "hmm_states",
                 "word_classes", "lexicons", "lexicon_types", "distill", "recut"):
        value = getattr(args, name)
        if value is not None and not (name == "recut" and value in ("auto", "none")):
            options[name] = value
    for name in _PARAMS:  # repeatable KEY=VALUE options: --param for model_params...
        items = getattr(args, flag(name)[2:].replace("-", "_"))
        if items:
            options[name] = parse_params(items)
    return options


def train_command(train_file="TRAIN", output="model.skops", model="online-crf", **options):
    """The ``skbioner train`` command that builds ``make_tagger(model, **options)``.

    Parameters
    ----------
    train_file, output : str
        The corpus and model paths to write in the command.
    model : str, default="online-crf"
    **options
        Keyword arguments of :func:`skbioner.pipelines.make_tagger` that the
        command line has (``n_jobs`` and ``verbose`` are not model options).

    Returns
    -------
    str
    """
    import shlex

    argv = ["skbioner", "train", "--train", str(train_file)]
    if model != "online-crf":
        argv += ["--model", model]
    for name, value in options.items():
        if name in _SWITCHES:
            argv += [flag(name)] if value else []
        elif name in _PARAMS:
            for key, v in dict(value or {}).items():
                argv += [flag(name), f"{key}={v!r}" if not isinstance(v, str) else f"{key}={v}"]
        elif name in ("members", "first_pass") and isinstance(value, list | tuple):
            argv += [flag(name), ",".join(map(_member_spec, value))]
        elif name == "distill" and isinstance(value, dict):
            argv += [flag(name), _member_spec(value)]
        elif value is not None:
            argv += [flag(name), str(value)]
    return shlex.join([*argv, "-o", str(output)])


def tuned_model(args, corpus, options, verbose, say, metadata):
    """``skbioner train --tune [--dev FILE]``: the tuned model (``metadata`` completed)."""
    from ..pipelines import tune
    from ..pipelines._tune import describe
    from ._formats import read_training_corpus, training_data_record

    dev = None
    if args.dev is not None:
        dev = read_training_corpus(args.dev, args.train_format, args.sep)
        metadata["development_data"] = training_data_record(args.dev, dev)
    tuned = tune(corpus.X, corpus.y, dev and dev.X, dev and dev.y,
                 pos_corpus=options.get("pos_jackknife"), verbose=verbose)
    metadata["tuned"] = describe(tuned.best_params_)
    say(rejected_winner_note(tuned.decision_, args.train, args.output))
    return tuned.best_estimator_


def rejected_winner_note(decision, train_file, output):
    """When ``--tune`` keeps the preset over a better-scoring winner (within noise): the
    winner's gain and the command that trains it; ``""`` otherwise."""
    options = dict(decision.get("winner_options") or {})
    if (decision["chosen"] != "default" or decision["winner_f1"] <= decision["default_f1"]
            or not options):
        return ""
    lo, hi = (100 * c for c in decision["delta_ci"])
    return (f"the search's winner ({decision['winner']}) was not taken: held-out F1 "
            f"{100 * (decision['winner_f1'] - decision['default_f1']):+.2f} points over the "
            f"preset (95% interval {lo:+.2f} to {hi:+.2f}: within noise); to try it:\n  "
            + train_command(train_file, output, options.pop("model"), **options))


def _member_spec(member):
    """One member of ``--members``: a preset name, or a dict of its make_tagger options."""
    if isinstance(member, str):
        return member
    if not isinstance(member, dict):
        raise TypeError(f"the command line cannot name the member {member!r:.60}")
    options = dict(member)
    return ":".join([options.pop("model", "online-crf"),
                     *(f"{k}={v!r}" if not isinstance(v, str) else f"{k}={v}"
                       for k, v in options.items())])


def flag(name):
    """The command-line option of make_tagger's argument ``name``."""
    return FLAGS.get(name, "--" + name.replace("_", "-"))
