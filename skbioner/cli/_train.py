"""Train a model on a labelled corpus and save it (with its featurizer).

The corpus is a column file (JNLPBA token<TAB>label, CoNLL token ... label),
a brat directory, a PubTator, BioC XML/JSON or JSONL file (--train-format,
detected by default); texts are tokenized with the entity offsets as token
boundaries and labelled IOB2 (entities that labels cannot hold are reported).

The saved object is a scikit-learn Pipeline (featurizer -> model) that
`skbioner predict`, `skbioner tag` and skbioner.io.load_model use as is.
It is written in the safe .skops format, which loads without running code;
an -o path ending in .joblib writes a joblib pickle instead (loading a
pickle runs any code it contains: `predict` and `tag` then need
--allow-pickle).  The file is replaced only once complete: a failed save
leaves an existing file as it was.  Default features: the
Chan/Settles template set with a frequency cutoff of 3.
Models: online-crf (OnlinePACRF), cascaded (CascadedNER), crfsuite
(CRFsuiteTagger, sklearn-crfsuite's L-BFGS CRF), majority (baseline), nerbio
(NERBio's features and numeral normalization with the online CRF; adds the POS
tagger itself),
hmm-svm (HMMSVMTagger, Zhou & Su 2004),
pairwise-svm (PairwiseSVMTagger, Kazama et al. 2002; adds the POS tagger itself; the
degree-2 kernel as explicit features, minutes on a whole corpus; --param kernel=poly is
libsvm's kernel SVM, hours).
Knowledge modules, with any model:
--abbreviations, --alias, --cascade-rules (post-processing steps),
--closed-dictionary (training names, out of fold on the training data) and
--dictionary FILE (an open dictionary) as features.
--param sets model parameters (e.g. --param C=0.05 --param max_iter=15, or
--param segmenter__C=0.1 for the cascaded model); --feature-param sets
featurizer parameters (e.g. --feature-param min_count=2).

Progress: the phases (reading, annotators, features, model, saving) and a
bar over the epochs (folds for the cascade, iterations for CRFsuite) on
stderr; --verbose prints one line per epoch instead of the bar, -q prints
nothing but errors.  The saved file records the training data (name,
SHA-256, counts), the settings and the versions used: `skbioner info MODEL`
shows them.  It holds the prediction state only (no training state),
compressed: see docs/first-hour.md for the sizes.

Annotations: --pos adds the bundled GENIA POS tagger before the featurizer;
--pos-jackknife GENIA_POS_TRAIN.tsv also tags the training sentences it has
seen out of fold (5 folds).  --hmm-states UNLABELED.txt fits an HMM-state
clusterer (40 states, chosen on the development split) on unlabeled
sentences (one per line, tokens separated by spaces) and adds the `hmm`
column (--hmm-param n_states=160 etc.).  The default features read both columns when present.
"""

import ast
import sys
import time

NAME = "train"
HELP = "train a model on a labelled corpus (columns, brat, PubTator, BioC, JSONL)"

MODELS = ("online-crf", "cascaded", "crfsuite", "majority", "nerbio", "hmm-svm",
          "pairwise-svm")


def add_arguments(p):
    from ._formats import FORMAT_CHOICES, FORMATS_HELP, SEP_HELP

    p.add_argument("--train", required=True, metavar="PATH",
                   help="training corpus: column file (token<TAB>IOB2 label), brat directory, "
                        "PubTator, BioC or JSONL file")
    p.add_argument("--train-format", choices=FORMAT_CHOICES, default="auto", help=FORMATS_HELP)
    p.add_argument("--sep", default="auto", help=SEP_HELP)
    p.add_argument("--model", choices=MODELS, default="online-crf")
    p.add_argument("--scheme", default=None,
                   help="internal segment representation (IOB2, IOBES, BIES, ...)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="model parameter (repeatable)")
    p.add_argument("--feature-param", action="append", default=[], metavar="KEY=VALUE",
                   help="featurizer parameter (repeatable)")
    p.add_argument("--pos", action="store_true",
                   help="add in-domain part of speech (bundled GENIA tagger)")
    p.add_argument("--pos-jackknife", metavar="POS_TRAIN", default=None,
                   help="the POS tagger's training corpus (genia-pos/train.tsv): tag training "
                        "sentences out of fold (implies --pos)")
    p.add_argument("--hmm-states", metavar="UNLABELED", default=None,
                   help="fit HMM states on these unlabeled sentences and add them as features")
    p.add_argument("--hmm-param", action="append", default=[], metavar="KEY=VALUE",
                   help="HMMStateClusterer parameter (repeatable)")
    know = p.add_argument_group("knowledge modules (Zhou & Su 2004; any --model)")
    know.add_argument("--abbreviations", action="store_true",
                      help="give abbreviations the class of their long forms")
    know.add_argument("--alias", action="store_true",
                      help="tag aliases of entities found earlier in the document")
    know.add_argument("--cascade-rules", action="store_true",
                      help="join entities by rules mined from the training entities")
    know.add_argument("--closed-dictionary", action="store_true",
                      help="the training entity names as dictionary features (jackknifed)")
    know.add_argument("--dictionary", metavar="FILE", default=None,
                      help="an open dictionary file as features (one name per line)")
    know.add_argument("--two-pass", action="store_true",
                      help="stack the model on its own first pass (out of fold): the "
                           "modules as features of a second pass (6 trainings)")
    p.add_argument("--recut", choices=("pieces", "jnlpba"), default=None,
                   help="wrap the model in RecutTagger: words re-cut at hyphens and slashes the "
                        "same way in training and tagging (pieces: at every one; jnlpba: by "
                        "the JNLPBA cut table), so raw text tags as well as gold tokens")
    p.add_argument("--tune", action="store_true",
                   help="choose the model, scheme, epochs, feature cutoff and POS column on "
                        "held-out training documents (a few minutes), then train the winner; "
                        "--model, --scheme, --param, --pos are then ignored")
    p.add_argument("-o", "--output", required=True, metavar="MODEL.skops",
                   help="where to save the model (.skops: safe format; .joblib: a pickle)")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--verbose", action="store_true",
                      help="one line per epoch on stderr instead of a progress bar")
    talk.add_argument("-q", "--quiet", action="store_true",
                      help="no progress and no summary on stderr (errors only)")


def parse_params(items):
    """``["C=0.1", "scheme=BIES"]`` -> ``{"C": 0.1, "scheme": "BIES"}``."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--param expects KEY=VALUE, got {item!r}")
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


def build_annotators(pos=False, pos_jackknife=None, hmm_states=None, hmm_params=(),
                     verbose=0, n_jobs=2):
    """The annotator steps of the command line's options (see ``make_annotators``)."""
    from ..pipelines import make_annotators

    return make_annotators(pos, pos_jackknife, hmm_states, parse_params(hmm_params), n_jobs,
                           int(verbose))


def build_model(name, scheme=None, params=(), feature_params=(), verbose=0,
                annotators=()):
    """The preset pipeline of the command line (``skbioner.pipelines.make_pipeline``).

    ``params`` and ``feature_params`` are ``KEY=VALUE`` strings; ``annotators``
    are ``(name, transformer)`` steps put before the featurizer.
    """
    from sklearn.pipeline import Pipeline

    from ..pipelines import make_pipeline

    if name == "majority" and annotators:
        raise ValueError("the majority baseline reads words only: drop --pos/--hmm-states")
    pipe = make_pipeline(name, scheme=scheme, model_params=parse_params(params),
                         feature_params=parse_params(feature_params), verbose=int(verbose))
    if annotators:
        names = {n for n, _ in annotators}  # nerbio and pairwise-svm bring their pos step
        pipe = Pipeline([*annotators, *[(n, s) for n, s in pipe.steps if n not in names]])
    return pipe


def _say(args):
    """Print a phase line on stderr (not with -q)."""
    def say(message):
        if not args.quiet:
            print(message, file=sys.stderr, flush=True)
    return say


def training_data_record(path, corpus):
    """What a saved model records about its training file (name, SHA-256, counts)."""
    import hashlib
    import os
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


def fit_in_phases(model, X, y, say):
    """Fit ``model`` (a Pipeline: step by step, as ``Pipeline.fit`` does), saying each phase."""
    from sklearn.pipeline import Pipeline

    if not isinstance(model, Pipeline):
        t0 = time.perf_counter()
        say(f"model: training {type(model).__name__}")
        model.fit(X, y)
        say(f"model: trained in {time.perf_counter() - t0:.1f} s")
        return model
    Xt = X
    for name, step in model.steps[:-1]:
        if step is None or step == "passthrough":
            continue
        t0 = time.perf_counter()
        if hasattr(step, "fit_transform"):  # as Pipeline.fit: a frozen step has none
            say(f"{name}: fitting {type(step).__name__}")
            Xt = step.fit_transform(Xt, y)
        else:
            say(f"{name}: {type(step).__name__}")
            Xt = step.fit(Xt, y).transform(Xt)
        n_out = getattr(step, "n_features_out_", None)
        extra = f"{n_out:,} features, " if n_out is not None else ""
        say(f"{name}: {extra}{time.perf_counter() - t0:.1f} s")
    final = model.steps[-1][1]
    t0 = time.perf_counter()
    say(f"model: training {type(final).__name__}")
    final.fit(Xt, y)
    say(f"model: trained in {time.perf_counter() - t0:.1f} s")
    return model


def _saved(args, say, seconds):
    import os

    size = os.path.getsize(args.output)
    say(f"saved {args.output} ({size / 1e6:.1f} MB) after {seconds:.1f} s of training")


def _run_tuned(args, corpus, metadata):
    from ..io import save_model
    from ..pipelines import tune
    from ..pipelines._tune import describe

    if args.hmm_states or args.pos_jackknife:
        raise ValueError("--tune searches the POS column itself; --hmm-states and "
                         "--pos-jackknife are not part of its search")
    t0 = time.perf_counter()
    tuned = tune(corpus.X, corpus.y, verbose=0 if args.quiet else 1)
    seconds = time.perf_counter() - t0
    say = _say(args)
    say("held-out exact F1 of what the search tried (last round first):")
    last = max(r["round"] for r in tuned.results_)
    for r in tuned.results_:
        if r["round"] >= last - 1:
            say(f"  round {r['round'] + 1}  {r['n_sentences']:>6} sentences  "
                f"{r['f1']:.4f}  {r['settings']}")
    d = tuned.decision_
    say(f"chosen: {describe(tuned.best_params_)} (held-out F1 {d['chosen_f1']:.4f}; "
        f"preset {d['default_f1']:.4f}, search winner {d['winner_f1']:.4f}, p = "
        f"{d['p_value']:.3f})")
    metadata.update(tuned=describe(tuned.best_params_), train_seconds=round(seconds, 1))
    save_model(tuned.best_estimator_, args.output, metadata=metadata)
    say(f"tuned and trained on {len(corpus.X)} sentences in {seconds:.1f} s")
    _saved(args, say, seconds)
    return 0


def run(args):
    from ..io import save_model
    from ._formats import read_training_corpus
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.train, args.pos_jackknife, args.hmm_states,
                                            getattr(args, "dictionary", None)])
    if args.model == "majority" and (args.pos or args.pos_jackknife or args.hmm_states):
        raise ValueError("the majority baseline reads words only: drop --pos/--hmm-states")
    if args.hmm_param and not args.hmm_states:
        raise ValueError("--hmm-param needs --hmm-states UNLABELED")
    say = _say(args)
    verbose = 0 if args.quiet else 2 if args.verbose else 1
    t0 = time.perf_counter()
    corpus = read_training_corpus(args.train, args.train_format, args.sep)
    record = training_data_record(args.train, corpus)
    say(f"read {args.train}: {record['documents']:,} documents, {record['sentences']:,} "
        f"sentences, {record['tokens']:,} tokens, {sum(record['entities'].values()):,} "
        f"entities ({time.perf_counter() - t0:.1f} s)")
    metadata = {"command": "skbioner train", "training_data": record}
    if args.tune:
        return _run_tuned(args, corpus, metadata)
    if args.hmm_states:
        say(f"hmm: fitting HMM states on {args.hmm_states}")
    annotators = build_annotators(args.pos, args.pos_jackknife, args.hmm_states, args.hmm_param,
                                  verbose)
    model = build_model(args.model, args.scheme, args.param, args.feature_param, verbose,
                        annotators)
    if getattr(args, "two_pass", False):
        from sklearn.base import clone

        from ..pipelines import add_first_pass
        from ..pipelines._presets import TWO_PASS_PARAMS

        if args.model == "majority":
            raise ValueError("--two-pass needs a model with features, not majority")
        first = clone(model)
        given = parse_params(args.param)  # the preset's second-pass settings, unless given
        model[-1].set_params(**{k: v for k, v in TWO_PASS_PARAMS.get(args.model, {}).items()
                                if k not in given})
        model = add_first_pass(model, first)
        metadata["two_pass"] = True
    knowledge = {k: getattr(args, k, False) for k in ("abbreviations", "alias", "cascade_rules",
                                                       "closed_dictionary")}
    if any(knowledge.values()) or getattr(args, "dictionary", None):
        from ..pipelines import add_knowledge

        if args.model == "majority":
            raise ValueError("the knowledge modules need a model with features, not majority")
        model = add_knowledge(model, dictionary=args.dictionary, **knowledge)
        metadata.update(knowledge={**knowledge, "dictionary": args.dictionary})
    if getattr(args, "recut", None):
        from ..models import RecutTagger

        model = RecutTagger(model, cuts=None if args.recut == "pieces" else args.recut)
        metadata.update(recut=args.recut)
    metadata.update(model=args.model, scheme=args.scheme, params=list(args.param),
                    feature_params=list(args.feature_param),
                    pos=bool(args.pos or args.pos_jackknife), pos_jackknife=args.pos_jackknife,
                    hmm_states=args.hmm_states, hmm_params=list(args.hmm_param))
    t0 = time.perf_counter()
    fit_in_phases(model, corpus.X, corpus.y, say)
    seconds = time.perf_counter() - t0
    metadata["train_seconds"] = round(seconds, 1)
    save_model(model, args.output, metadata=metadata)
    _saved(args, say, seconds)
    return 0
