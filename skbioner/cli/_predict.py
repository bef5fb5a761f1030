"""Tag a column file with a saved model.

IN is a column file whose first column holds the tokens (JNLPBA / CoNLL
layout, tab-separated); OUT is the same file with the label column replaced
by the predicted IOB2 labels, or with a label column added when IN has only
tokens.  Everything else (document lines, blank lines) is copied.
"""

import gzip
import sys
import time

NAME = "predict"
HELP = "tag a column file with a saved model"


def add_arguments(p):
    p.add_argument("model", metavar="MODEL.joblib", help="a model saved by `skbioner train`")
    p.add_argument("input", metavar="IN", help="column file to tag")
    p.add_argument("-o", "--output", required=True, metavar="OUT")


def _n_columns(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            if line and not line.startswith("###MEDLINE:") and not line.startswith("-DOCSTART-"):
                return len(line.split("\t"))
    return 1


def load_model(path):
    import joblib

    model = joblib.load(path)
    if not hasattr(model, "predict"):
        raise ValueError(f"{path}: not a skbioner model (no predict method)")
    return model


def run(args):
    from ..io import read_columns, write_columns

    model = load_model(args.model)
    label_col = -1 if _n_columns(args.input) > 1 else None
    corpus = read_columns(args.input, label_col=label_col, scheme=None)
    t0 = time.perf_counter()
    pred = model.predict(corpus.X)
    seconds = time.perf_counter() - t0
    write_columns(args.output, corpus, y=pred)
    n_tok = sum(map(len, corpus.X))
    print(f"tagged {n_tok} tokens in {seconds:.2f} s ({n_tok / max(seconds, 1e-9):,.0f} "
          f"tokens/s); wrote {args.output}", file=sys.stderr)
    return 0
