"""Tag a column file with a saved model.

IN is a column file whose first column holds the tokens (JNLPBA / CoNLL
layout; tab- or space-separated, detected unless --sep says); OUT is the same file with
the label column replaced by the predicted IOB2 labels, or with a label
column added when IN has only tokens.  Everything else (document lines, blank
lines) is copied.  IN is read once, so a pipe works (``<(zcat f.gz)``).

MODEL (--model MODEL, or before IN) is a file written by `skbioner train`
(or skbioner.io.save_model) in the safe .skops format, or a model bundled
with skbioner by name, as for `skbioner tag`: jnlpba (the default when no
MODEL is given) or bc5cdr.  A joblib/pickle model is refused unless
--allow-pickle is given: loading a pickle runs any code it contains.
"""

import sys
import time

NAME = "predict"
HELP = "tag a column file with a saved model"

ALLOW_PICKLE_HELP = ("also load a joblib/pickle model file; loading a pickle runs any code it "
                     "contains: use only for files from a source you trust")


#: What --model (and a MODEL given before IN) may be; the same as `skbioner tag --model`.
MODEL_HELP = ("a model saved by `skbioner train` (.skops), or a bundled model by name: jnlpba "
              "(the default: protein, DNA, RNA, cell line, cell type) or bc5cdr (chemicals "
              "and diseases)")


def add_arguments(p):
    p.add_argument("positional", nargs="+", metavar="[MODEL] IN",
                   help="column file to tag, after the model in the older form "
                        "`skbioner predict MODEL IN`")
    p.add_argument("-m", "--model", default=None, metavar="MODEL", help=MODEL_HELP)
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the tagged column file; - for standard output")
    p.add_argument("--sep", default="auto",
                   help="column separator of IN: auto (tab if the first token line has one, "
                        "else space), tab, or e.g. ' '")
    p.add_argument("--allow-pickle", action="store_true", help=ALLOW_PICKLE_HELP)


def _model_and_input(args):
    """``(model, IN)``: ``[MODEL] IN`` or ``--model MODEL IN``; no model: the bundled one."""
    if len(args.positional) > 2:
        raise ValueError(f"give one IN (a column file), got {len(args.positional)} arguments")
    if len(args.positional) == 1:
        return args.model, args.positional[0]
    if args.model is not None:
        raise ValueError(f"the model is given twice (--model {args.model} and "
                         f"{args.positional[0]}): give IN alone after --model")
    return tuple(args.positional)


def run(args):
    from ..io import CorpusFormatError, read_columns, write_columns
    from ..io._atomic import check_writable
    from ..tagging._bundled import load_model
    from ._formats import separator
    from ._paths import refuse_output_over_inputs

    model_path, input_path = _model_and_input(args)
    args.model_file = model_path  # named if the model fails unexpectedly
    refuse_output_over_inputs(args.output, [input_path, model_path])
    check_writable(args.output)
    # a bundled model's name is resolved where `skbioner tag` resolves it (bundled_model_path)
    model = load_model(model_path, allow_pickle=args.allow_pickle)
    corpus = read_columns(input_path, label_col="auto", scheme=None, sep=separator(args.sep))
    sep = corpus._layout.sep
    for i, sentence in enumerate(corpus.X if corpus.y is None and sep != " " else ()):
        for j, token in enumerate(sentence):  # one column of tokens with spaces: IN has spaces
            if " " in token:
                raise CorpusFormatError(
                    input_path, corpus.line_of(i, j),
                    f"token {token!r} contains a space: IN looks space-separated, but columns "
                    f"are split on {sep!r}; pass --sep ' ' for a space-separated file")
    t0 = time.perf_counter()
    pred = model.predict(corpus.X)
    seconds = time.perf_counter() - t0
    write_columns(args.output, corpus, y=pred)
    n_tok = sum(map(len, corpus.X))
    print(f"tagged {n_tok} tokens in {seconds:.2f} s ({n_tok / max(seconds, 1e-9):,.0f} "
          f"tokens/s); wrote {args.output}", file=sys.stderr)
    return 0
