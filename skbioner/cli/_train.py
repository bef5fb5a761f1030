"""Train a tagger on a labelled corpus and save it.

The corpus: a column file (token<TAB>IOB2 label), a brat directory, a PubTator,
BioC XML/JSON or JSONL file.  The tagger: skbioner.pipelines.make_tagger with
the options below (each is one of its arguments).  The model file: the safe
.skops format (-o x.joblib writes a pickle), replaced only once complete, with
a record of the training data and settings (`skbioner info`).  Which model to
choose: docs/results.md; every option: docs/user-guide.md ("Training").
"""

import contextlib
import os
import sys
import time

NAME = "train"
HELP = "train a model on a labelled corpus (columns, brat, PubTator, BioC, JSONL)"

#: ``--flag`` -> make_tagger's boolean argument of the same name
_SWITCHES = ("pos", "two_pass", "abbreviations", "alias", "cascade_rules", "closed_dictionary")
#: make_tagger's arguments whose option is not ``--`` + the name with dashes
_FLAGS = {"hmm_params": "--hmm-param", "model_params": "--param",
          "feature_params": "--feature-param", **{k: "--" + k.replace("_", "-") for k in (
              "scheme", "pos", "pos_jackknife", "hmm_states", "recut", "dictionary", "two_pass",
              "first_pass")}}


#: skbioner.pipelines.PRESETS (kept here so that --help imports no model code; a test
#: checks that they agree)
MODELS = ("online-crf", "cascaded", "crfsuite", "majority", "nerbio", "hmm-svm",
          "pairwise-svm")


def add_arguments(p):
    from ._formats import FORMAT_CHOICES, FORMATS_HELP, SEP_HELP

    p.add_argument("--train", required=True, metavar="PATH", help="the labelled corpus")
    p.add_argument("--train-format", choices=FORMAT_CHOICES, default="auto", help=FORMATS_HELP)
    p.add_argument("--sep", default="auto", help=SEP_HELP)
    p.add_argument("-o", "--output", required=True, metavar="MODEL.skops",
                   help="where to save the model (.skops; .joblib: a pickle)")
    m = p.add_argument_group("model")
    m.add_argument("--model", choices=MODELS, default="online-crf")
    m.add_argument("--scheme", default=None, help="internal segment representation (BIES...)")
    m.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="model parameter, repeatable (C=0.05, segmenter__C=0.1)")
    m.add_argument("--feature-param", action="append", default=[], metavar="KEY=VALUE",
                   help="featurizer parameter, repeatable (min_count=2)")
    m.add_argument("--tune", action="store_true",
                   help="choose model, scheme, epochs, cutoff and POS on held-out documents")
    a = p.add_argument_group("annotations read as features")
    a.add_argument("--pos", action="store_true", help="the bundled GENIA POS tagger")
    a.add_argument("--pos-jackknife", metavar="POS_TRAIN", default=None,
                   help="the POS tagger's training corpus: its sentences tagged out of fold")
    a.add_argument("--hmm-states", metavar="UNLABELED", default=None,
                   help="HMM states fitted on these unlabeled sentences (Kazama et al.)")
    a.add_argument("--hmm-param", action="append", default=[], metavar="KEY=VALUE")
    k = p.add_argument_group("knowledge (Zhou & Su 2004) and composition")
    k.add_argument("--two-pass", action="store_true",
                   help="stack on an out-of-fold first pass (the same model by default)")
    k.add_argument("--first-pass", choices=MODELS, default=None, help="its first pass")
    k.add_argument("--abbreviations", action="store_true",
                   help="abbreviations take their long form's class")
    k.add_argument("--alias", action="store_true", help="aliases of earlier entities")
    k.add_argument("--cascade-rules", action="store_true", help="rules mined from entities")
    k.add_argument("--closed-dictionary", action="store_true",
                   help="the training names as features (out of fold)")
    k.add_argument("--dictionary", metavar="FILE", default=None,
                   help="an open dictionary (one name per line) as features")
    k.add_argument("--recut", choices=("pieces", "jnlpba"), default=None,
                   help="re-cut words at hyphens and slashes in training and tagging alike")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--verbose", action="store_true", help="a line per epoch, not a bar")
    talk.add_argument("-q", "--quiet", action="store_true", help="errors only")


def tagger_options(args):
    """``make_tagger``'s keyword arguments from the parsed command line."""
    from ..pipelines import parse_params

    options = {name: True for name in _SWITCHES if getattr(args, name)}
    for name, value in (("scheme", args.scheme), ("first_pass", args.first_pass),
                        ("pos_jackknife", args.pos_jackknife),
                        ("hmm_states", args.hmm_states), ("dictionary", args.dictionary),
                        ("recut", args.recut)):
        if value is not None:
            options[name] = value
    for name, items in (("model_params", args.param), ("feature_params", args.feature_param),
                        ("hmm_params", args.hmm_param)):
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
            argv += [_flag(name)] if value else []
        elif name in ("model_params", "feature_params", "hmm_params"):
            for key, v in dict(value or {}).items():
                argv += [_flag(name), f"{key}={v!r}" if not isinstance(v, str) else f"{key}={v}"]
        elif value is not None:
            argv += [_flag(name), str(value)]
    return shlex.join([*argv, "-o", str(output)])


def _flag(name):
    return _FLAGS.get(name, "--" + name.replace("_", "-"))


def training_data_record(path, corpus):
    """What a saved model records about its training file (name, SHA-256, counts)."""
    import hashlib
    from collections import Counter

    from ..schemes import labels_to_spans

    record = {"file": os.fspath(path)}
    if os.path.isfile(path):  # a pipe is read once, by the reader
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        record["sha256"] = digest.hexdigest()
    types = Counter(t for y in corpus.y for t, _, _ in labels_to_spans(y))
    record.update(documents=len(set(corpus.doc_ids)), sentences=len(corpus.X),
                  tokens=sum(map(len, corpus.X)), entities=dict(sorted(types.items())))
    return record


def _built(make_tagger, model, **options):
    """``make_tagger(model, **options)``; its errors name the command line's options."""
    import re

    try:
        return make_tagger(model, **options)
    except ValueError as exc:
        message = re.sub(r"\b(" + "|".join(_FLAGS) + r")\b", lambda m: _FLAGS[m[1]], str(exc))
        raise ValueError(message) from None


def _silenced(model):
    """``model`` with every ``verbose`` parameter at 0: progress is not a model setting."""
    noisy = {k: 0 for k, v in model.get_params(deep=True).items()
             if k.split("__")[-1] == "verbose" and v}
    return model.set_params(**noisy)


def run(args):
    from ..io import save_model
    from ..pipelines import make_tagger, tune
    from ..pipelines._tune import describe
    from ._formats import read_training_corpus
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.train, args.pos_jackknife, args.hmm_states,
                                            args.dictionary])
    say = (lambda message: None) if args.quiet else \
        (lambda message: print(message, file=sys.stderr, flush=True))
    verbose = 0 if args.quiet else 2 if args.verbose else 1
    options = tagger_options(args)
    if args.tune:
        # --pos-jackknife: the POS column is searched with the tagger's own training sentences
        # (held-out ones included) tagged out of fold
        extra = sorted(set(options) - {"model_params", "feature_params", "pos_jackknife"})
        if extra:
            raise ValueError("--tune chooses the model, scheme and annotations itself: drop "
                             + ", ".join(map(_flag, extra)))
    else:  # options checked (and HMM states fitted) before the corpus is read
        if args.hmm_states:
            say(f"hmm: fitting HMM states on {args.hmm_states}")
        model = _built(make_tagger, args.model, verbose=verbose, **options)
    t0 = time.perf_counter()
    corpus = read_training_corpus(args.train, args.train_format, args.sep)
    record = training_data_record(args.train, corpus)
    say(f"read {args.train}: {record['documents']:,} documents, {record['sentences']:,} "
        f"sentences, {record['tokens']:,} tokens, {sum(record['entities'].values()):,} "
        f"entities ({time.perf_counter() - t0:.1f} s)")
    metadata = {"command": "skbioner train", "training_data": record}
    t0 = time.perf_counter()
    if args.tune:
        tuned = tune(corpus.X, corpus.y, pos_corpus=options.get("pos_jackknife"),
                     verbose=verbose)  # logs its rounds and choice
        model = tuned.best_estimator_
        metadata["tuned"] = describe(tuned.best_params_)
    else:
        metadata.update(model=args.model, options=options)
        # the pipeline's steps with their times (sklearn prints them on stdout), the epochs
        with contextlib.redirect_stdout(sys.stderr) if verbose else contextlib.nullcontext():
            model.fit(corpus.X, corpus.y)
    seconds = time.perf_counter() - t0
    metadata["train_seconds"] = round(seconds, 1)
    save_model(_silenced(model), args.output, metadata=metadata)
    say(f"saved {args.output} ({os.path.getsize(args.output) / 1e6:.1f} MB) after "
        f"{seconds:.1f} s of training")
    return 0
