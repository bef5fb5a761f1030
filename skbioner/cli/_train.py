"""Train a tagger on a labelled corpus and save it.

The corpus: a column file (token<TAB>IOB2 label), a brat directory, a PubTator,
BioC XML/JSON or JSONL file.  The tagger: skbioner.pipelines.make_tagger with
the options below (each is one of its arguments).  The model file: the safe
.skops format (-o x.joblib writes a pickle), replaced only once complete, with
a record of the training data and settings (`skbioner info`).  Which model to
choose: docs/first-hour.md ("Which model"); every option: docs/user-guide.md ("Train,
evaluate, persist").
"""

import contextlib
import os
import sys
import time

NAME = "train"
HELP = "train a model on a labelled corpus (columns, brat, PubTator, BioC, JSONL)"


def add_arguments(p):
    from ._formats import FORMAT_CHOICES, FORMATS_HELP, SEP_HELP
    from ._options import add_tagger_arguments

    p.add_argument("--train", required=True, metavar="PATH", help="the labelled corpus")
    p.add_argument("--train-format", choices=FORMAT_CHOICES, default="auto", help=FORMATS_HELP)
    p.add_argument("--sep", default="auto", help=SEP_HELP)
    p.add_argument("-o", "--output", required=True, metavar="MODEL.skops",
                   help="where to save the model (.skops; .joblib: a pickle); checked to be "
                        "writable before training")
    add_tagger_arguments(p)
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--verbose", action="store_true", help="a line per epoch, not a bar")
    talk.add_argument("-q", "--quiet", action="store_true", help="errors only")


def _built(make_tagger, model, **options):
    """``make_tagger(model, **options)``; its errors name the command line's options."""
    import re

    from ._options import FLAGS

    try:
        return make_tagger(model, **options)
    except ValueError as exc:
        message = re.sub(r"\b(" + "|".join(FLAGS) + r")\b", lambda m: FLAGS[m[1]], str(exc))
        raise ValueError(message) from None


def _silenced(model):
    """``model`` with every ``verbose`` parameter at 0: progress is not a model setting.

    Every estimator inside it counts: the parameters of its steps and also the
    fitted estimators it holds (a post-processed or re-cut tagger's ``tagger_``,
    a first pass's fitted models, a cascade's ``classifier_``), which
    ``set_params`` does not reach.
    """
    from sklearn.base import BaseEstimator

    seen, todo = set(), [model]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, BaseEstimator):
            params = obj.get_params(deep=False)
            if params.get("verbose"):
                obj.set_params(verbose=False if isinstance(params["verbose"], bool) else 0)
            todo.extend(params.values())
            todo.extend(vars(obj).values())
        elif isinstance(obj, list | tuple):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
    return model


def run(args):
    from ..io import save_model
    from ..io._atomic import check_writable
    from ..pipelines import make_tagger
    from ._formats import documents_phrase, plural, read_training_corpus, training_data_record
    from ._options import INPUTS, flag, tagger_options, tuned_model
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.train, *map(vars(args).get, INPUTS)])
    check_writable(args.output)  # a missing directory is found now, not after the training
    say = (lambda message: None) if args.quiet else \
        (lambda message: message and print(message, file=sys.stderr, flush=True))
    verbose = 0 if args.quiet else 2 if args.verbose else 1
    options = tagger_options(args)
    if args.tune:
        # --pos-jackknife: the POS column is searched with the tagger's own training sentences
        # (held-out ones included) tagged out of fold
        extra = sorted(set(options) - {"model_params", "feature_params", "pos_jackknife"})
        if extra:
            raise ValueError("--tune chooses the model, scheme and annotations itself: drop "
                             + ", ".join(map(flag, extra)))
    else:  # options checked (and HMM states fitted) before the corpus is read
        if args.hmm_states:
            say(f"hmm: fitting HMM states on {args.hmm_states}")
        model = _built(make_tagger, args.model, verbose=verbose, **options)
    t0 = time.perf_counter()
    corpus = read_training_corpus(args.train, args.train_format, args.sep)
    record = training_data_record(args.train, corpus)
    say(f"read {args.train}: {documents_phrase(record['documents'])}, "
        f"{plural(record['sentences'], 'sentence')}, {plural(record['tokens'], 'token')}, "
        f"{plural(sum(record['entities'].values()), 'entity', 'entities')} "
        f"({time.perf_counter() - t0:.1f} s)")
    if not record["entities"]:
        print(f"skbioner train: warning: {args.train} has no entity (every label is O): the "
              "model will tag nothing", file=sys.stderr)
    metadata = {"command": "skbioner train", "training_data": record}
    if not args.tune and args.recut == "auto" and args.model != "majority":
        from ..text import hyphen_cut_share
        from ..text._recut import EVERY_HYPHEN

        share = hyphen_cut_share(corpus.X)
        if share >= EVERY_HYPHEN:  # raw text cut as the training tokens were (nan: no hyphen)
            say(f"the corpus cuts words at every hyphen ({share:.0%} of its hyphens are "
                "tokens): raw text will be cut the same way (--recut pieces; --recut none to "
                "keep words whole)")
            options = {**options, "recut": "pieces"}
            model = _built(make_tagger, args.model, verbose=verbose, **options)
    t0 = time.perf_counter()
    if args.tune:  # logs its rounds and choice
        model = tuned_model(args, corpus, options, verbose, say, metadata)
    else:
        # --unlabeled: what the distilled tagger's teacher labels, its fit's X_unlabeled
        unlabeled = {} if args.unlabeled is None else {"unlabeled": args.unlabeled}
        metadata.update(model=args.model, options={**options, **unlabeled})
        # the pipeline's steps with their times (sklearn prints them on stdout), the epochs
        with contextlib.redirect_stdout(sys.stderr) if verbose else contextlib.nullcontext():
            model.fit(corpus.X, corpus.y, **{f"X_{k}": v for k, v in unlabeled.items()})
    seconds = time.perf_counter() - t0
    metadata["train_seconds"] = round(seconds, 1)
    save_model(_silenced(model), args.output, metadata=metadata)
    size = f" ({os.path.getsize(args.output) / 1e6:.1f} MB)" if os.path.isfile(args.output) \
        else ""  # - (standard output), a FIFO
    say(f"saved {args.output}{size} after {seconds:.1f} s of training")
    return 0
