"""Score a prediction file against a gold file with the official JNLPBA counting.

GOLD and PRED are token<TAB>label column files, read exactly as the official
evalIOB2.pl reads them (the label is the last tab-separated field; blank lines
and ###MEDLINE lines separate sentences).  The default report is laid out
like the official one; --json prints one JSON object
{"overall": S, "per_class": {"protein": S, ...}} with
S = {"n_gold", "n_pred", "exact": M, "left": M, "right": M} and
M = {"tp", "precision", "recall", "f1"}.

The counts are always the official script's; what it overlooks gets a
warning on stderr naming file and line: PRED tokens that differ from GOLD's,
PRED lines without a label column, labels outside IOB2, carriage returns at
line ends, and a PRED in another scheme (IOB1, IOBES).
"""

import json
import sys

NAME = "evaluate"
HELP = "score PRED against GOLD (official JNLPBA 2004 counting)"


def add_arguments(p):
    p.add_argument("gold", metavar="GOLD", help="gold column file (token<TAB>label)")
    p.add_argument("pred", metavar="PRED", help="predicted column file (token<TAB>label)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object instead of the report")
    p.add_argument(
        "--mode", choices=("official", "spans"), default="official",
        help="official: the 2004 scorer's counts, quirks included (default); "
             "spans: strict span matching under --scheme",
    )
    p.add_argument("--scheme", default="IOB2", help="label scheme of both files in spans mode")


def run(args):
    import warnings

    from ..metrics import evaluate_files
    from ..metrics._files import ScoringInputWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ScoringInputWarning)
        report = evaluate_files(args.gold, args.pred, mode=args.mode, scheme=args.scheme)
    for w in caught:
        if issubclass(w.category, ScoringInputWarning):
            print(f"skbioner evaluate: warning: {w.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if report.overall.n_gold == 0:
        print("skbioner evaluate: warning: GOLD has no entity (scores are 0)", file=sys.stderr)
    if report.overall.n_pred == 0:
        print("skbioner evaluate: warning: PRED has no counted entity (scores are 0)",
              file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        sys.stdout.write(report.to_text())
    return 0
