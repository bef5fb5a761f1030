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
(CRFsuiteTagger, sklearn-crfsuite's L-BFGS CRF), majority (baseline).
--param sets model parameters (e.g. --param C=0.05 --param max_iter=15, or
--param segmenter__C=0.1 for the cascaded model); --feature-param sets
featurizer parameters (e.g. --feature-param min_count=2).

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

MODELS = ("online-crf", "cascaded", "crfsuite", "majority")


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
    p.add_argument("--tune", action="store_true",
                   help="choose the model, scheme, epochs, feature cutoff and POS column on "
                        "held-out training documents (a few minutes), then train the winner; "
                        "--model, --scheme, --param, --pos are then ignored")
    p.add_argument("-o", "--output", required=True, metavar="MODEL.skops",
                   help="where to save the model (.skops: safe format; .joblib: a pickle)")
    p.add_argument("--verbose", action="store_true", help="per-epoch progress on stderr")


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
                     verbose=False, n_jobs=2):
    """The annotator steps of the command line's options (see ``make_annotators``)."""
    from ..pipelines import make_annotators

    return make_annotators(pos, pos_jackknife, hmm_states, parse_params(hmm_params), n_jobs,
                           int(verbose))


def build_model(name, scheme=None, params=(), feature_params=(), verbose=False,
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
        pipe = Pipeline([*annotators, *pipe.steps])
    return pipe


def _run_tuned(args, corpus):
    from ..io import save_model
    from ..pipelines import tune
    from ..pipelines._tune import describe

    if args.hmm_states or args.pos_jackknife:
        raise ValueError("--tune searches the POS column itself; --hmm-states and "
                         "--pos-jackknife are not part of its search")
    t0 = time.perf_counter()
    tuned = tune(corpus.X, corpus.y, verbose=1)
    seconds = time.perf_counter() - t0
    print("held-out exact F1 of what the search tried (last round first):", file=sys.stderr)
    last = max(r["round"] for r in tuned.results_)
    for r in tuned.results_:
        if r["round"] >= last - 1:
            print(f"  round {r['round'] + 1}  {r['n_sentences']:>6} sentences  "
                  f"{r['f1']:.4f}  {r['settings']}", file=sys.stderr)
    d = tuned.decision_
    print(f"chosen: {describe(tuned.best_params_)} (held-out F1 {d['chosen_f1']:.4f}; "
          f"preset {d['default_f1']:.4f}, search winner {d['winner_f1']:.4f}, p = "
          f"{d['p_value']:.3f})", file=sys.stderr)
    save_model(tuned.best_estimator_, args.output)
    print(f"tuned and trained on {len(corpus.X)} sentences in {seconds:.1f} s; saved to "
          f"{args.output}", file=sys.stderr)
    return 0


def run(args):
    from ..io import save_model
    from ._formats import read_training_corpus
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.train, args.pos_jackknife, args.hmm_states])
    if args.model == "majority" and (args.pos or args.pos_jackknife or args.hmm_states):
        raise ValueError("the majority baseline reads words only: drop --pos/--hmm-states")
    if args.hmm_param and not args.hmm_states:
        raise ValueError("--hmm-param needs --hmm-states UNLABELED")
    corpus = read_training_corpus(args.train, args.train_format, args.sep)
    if args.tune:
        return _run_tuned(args, corpus)
    annotators = build_annotators(args.pos, args.pos_jackknife, args.hmm_states, args.hmm_param,
                                  args.verbose)
    model = build_model(args.model, args.scheme, args.param, args.feature_param, args.verbose,
                        annotators)
    t0 = time.perf_counter()
    model.fit(corpus.X, corpus.y)
    seconds = time.perf_counter() - t0
    save_model(model, args.output)
    n_tok = sum(map(len, corpus.X))
    print(f"trained {args.model} on {len(corpus.X)} sentences ({n_tok} tokens) in "
          f"{seconds:.1f} s; saved to {args.output}", file=sys.stderr)
    return 0
