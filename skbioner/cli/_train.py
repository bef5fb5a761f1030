"""Train a model on a column file and save it (with its featurizer).

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
HELP = "train a model on a column file and save it (.skops)"

MODELS = ("online-crf", "cascaded", "crfsuite", "majority")


def add_arguments(p):
    p.add_argument("--train", required=True, metavar="FILE",
                   help="training column file (token<TAB>IOB2 label, JNLPBA layout)")
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
    """Pipeline steps that add the ``pos`` / ``hmm`` columns (fitting the HMM now).

    ``hmm_states`` is a file of unlabeled sentences; the clusterer is fitted
    on it here and enters the pipeline frozen, so fitting the pipeline on
    labelled data does not refit it.
    """
    from sklearn.frozen import FrozenEstimator

    from ..annotate import HMMStateClusterer, POSTagger

    steps = []
    if pos or pos_jackknife:
        steps.append(("pos", POSTagger(jackknife=5 if pos_jackknife else None,
                                       corpus=pos_jackknife, n_jobs=n_jobs)))
    if hmm_states:
        from ..io import read_tokenized

        sentences = read_tokenized(hmm_states)
        # 40 states: chosen on the development split (benchmarks/annotations_dev.py
        # --n-states); the paper's 160 were worse there
        hmm = HMMStateClusterer(n_states=40, random_state=0, n_jobs=n_jobs,
                                verbose=int(verbose))
        hmm.set_params(**parse_params(hmm_params))
        hmm.fit(sentences)
        hmm.set_params(n_jobs=None)  # fitting threads; tagging processes set their own
        steps.append(("hmm", FrozenEstimator(hmm)))
    return steps


def build_model(name, scheme=None, params=(), feature_params=(), verbose=False,
                annotators=()):
    """The default pipeline for a model name, with parameters applied.

    ``annotators`` are ``(name, transformer)`` steps put before the
    featurizer (see :func:`build_annotators`).
    """
    from sklearn.pipeline import Pipeline

    from ..features import TokenFeaturizer
    from ..models import CascadedNER, CRFsuiteTagger, MajorityTagger, OnlinePACRF

    if name == "majority":
        if annotators:
            raise ValueError("the majority baseline reads words only: drop --pos/--hmm-states")
        return MajorityTagger(**parse_params(params))
    if name == "online-crf":
        # settings chosen on the development split (benchmarks/tune_dev.py; docs/benchmarks.md)
        model = OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                            random_state=0)
    elif name == "cascaded":
        model = CascadedNER(
            segmenter=OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10),
            classifier=OnlinePACRF(C=0.003, max_iter=5), random_state=0, n_jobs=2,
        )
    else:
        model = CRFsuiteTagger()
    settings = parse_params(params)
    if scheme is not None:
        prefix = "segmenter__" if name == "cascaded" else ""
        settings.setdefault(prefix + "scheme", scheme)
        if name != "crfsuite":  # a chosen scheme replaces the default scheme mix
            settings.setdefault(prefix + "extra_schemes", ())
    if verbose:
        settings.setdefault("verbose", 1)
    model.set_params(**settings)
    # min_count=3 chosen on the development split (docs/benchmarks.md): as good or better
    # than no cutoff, with 7x fewer features
    featurizer = TokenFeaturizer(templates="chan", min_count=3)
    featurizer.set_params(**parse_params(feature_params))
    return Pipeline([*annotators, ("features", featurizer), ("model", model)])


def run(args):
    from ..io import read_jnlpba, save_model
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.train, args.pos_jackknife, args.hmm_states])
    if args.model == "majority" and (args.pos or args.pos_jackknife or args.hmm_states):
        raise ValueError("the majority baseline reads words only: drop --pos/--hmm-states")
    if args.hmm_param and not args.hmm_states:
        raise ValueError("--hmm-param needs --hmm-states UNLABELED")
    corpus = read_jnlpba(args.train)
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
