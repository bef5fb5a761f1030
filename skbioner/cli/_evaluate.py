"""Score a prediction file against a gold file.

Column files (GOLD and PRED both token ... label lines): the official JNLPBA
counting.  They are read exactly as the official evalIOB2.pl reads them (the
label is the last field; blank lines and ###MEDLINE lines separate sentences;
fields split on tabs, or on spaces for a CoNLL file: --sep, detected by
default).

Any other format on either side -- raw-text output of `skbioner tag` (a brat
directory or JSONL) against standoff gold (a brat directory, PubTator, BioC
XML/JSON, JSONL with texts) -- is scored on character offsets: an entity is
correct when a gold entity of its document has the same type and offsets
(exact), the same type and start (left) or the same type and end (right), the
three views of the official scorer.  (A column file on one side is then read
as its tokens joined by spaces, which only output made on that text matches.)

The default report is laid out like the official one; --json prints one JSON
object {"overall": S, "per_class": {"protein": S, ...}} with
S = {"n_gold", "n_pred", "exact": M, "left": M, "right": M} and
M = {"tp", "precision", "recall", "f1"}.

The counts are always the official script's (column files); what it
overlooks gets a warning on stderr naming file and line: PRED tokens that
differ from GOLD's, PRED lines without a label column, labels outside IOB2,
carriage returns at line ends, and a PRED in another scheme (IOB1, IOBES).
For character offsets, warnings name the documents PRED lacks or adds, and
those whose text differs from GOLD's; --only-predicted-documents scores only
the GOLD documents PRED has (a part of a corpus tagged), and the report
says how many were left out.

--exclude-overlap TRAIN scores only GOLD's documents that TRAIN does not hold
(by ###MEDLINE ids): 10 of the 404 JNLPBA test abstracts are also in the
training data (and in GENIA POS train), so
`skbioner evaluate test.iob2 pred.iob2 --exclude-overlap train.iob2` gives
the score on the other 394, the official counts on both files without them.
"""

import json
import sys

NAME = "evaluate"
HELP = "score PRED against GOLD (official JNLPBA counting, or character offsets)"


def add_arguments(p):
    from ._formats import FORMAT_CHOICES, SEP_HELP

    p.add_argument("gold", metavar="GOLD",
                   help="gold corpus: column file, brat directory, PubTator, BioC or JSONL file")
    p.add_argument("pred", metavar="PRED",
                   help="predictions: column file, brat directory or JSONL (skbioner tag)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object instead of the report")
    p.add_argument(
        "--mode", choices=("official", "spans"), default=None,
        help="column files only -- official: the 2004 scorer's counts, quirks included "
             "(default); spans: strict span matching under --scheme",
    )
    p.add_argument("--scheme", default="IOB2", help="label scheme of both files in spans mode")
    p.add_argument("--gold-format", choices=FORMAT_CHOICES, default="auto",
                   help="format of GOLD (default: detected)")
    p.add_argument("--pred-format", choices=FORMAT_CHOICES, default="auto",
                   help="format of PRED (default: detected)")
    p.add_argument("--sep", default="auto", help=SEP_HELP)
    p.add_argument("--only-predicted-documents", action="store_true",
                   help="score only the GOLD documents PRED has (PRED tagged part of the "
                        "corpus); the report says how many were left out (character offsets)")
    p.add_argument("--exclude-overlap", action="append", default=[], metavar="FILE",
                   help="column files only: score only GOLD's documents (###MEDLINE ids) that "
                        "are not in FILE (repeatable), e.g. the training file: 10 of the 404 "
                        "JNLPBA test abstracts are also training abstracts")


def run(args):
    from ..io import detect_format
    from ..metrics import evaluate_files, evaluate_span_files
    from ._formats import separator, warnings_on_stderr

    sep = separator(args.sep)
    gold_format = detect_format(args.gold) if args.gold_format == "auto" else args.gold_format
    pred_format = detect_format(args.pred) if args.pred_format == "auto" else args.pred_format
    with warnings_on_stderr("evaluate"):
        exclude = None
        if args.exclude_overlap:
            from ..datasets import jnlpba_overlap_ids

            if not gold_format == pred_format == "columns":
                raise ValueError("--exclude-overlap applies to column files (documents by "
                                 "their ###MEDLINE lines)")
            exclude = sorted({d for train in args.exclude_overlap
                              for d in jnlpba_overlap_ids(train, args.gold)})
            print(f"skbioner evaluate: {len(exclude)} documents of {args.gold} are also in "
                  f"{', '.join(args.exclude_overlap)}: left out", file=sys.stderr)
        if gold_format == pred_format == "columns":
            if args.only_predicted_documents:
                raise ValueError("--only-predicted-documents applies to documents scored on "
                                 "character offsets; column files are compared token by token "
                                 "(give PRED the documents of GOLD)")
            report = evaluate_files(args.gold, args.pred, mode=args.mode or "official",
                                    scheme=args.scheme, sep=sep, exclude_documents=exclude)
        else:
            if args.mode is not None:
                raise ValueError(f"--mode applies to column files; {args.gold} is "
                                 f"{gold_format} and {args.pred} is {pred_format}, scored on "
                                 "character offsets (exact, left and right)")
            report = evaluate_span_files(args.gold, args.pred, gold_format=gold_format,
                                         pred_format=pred_format, sep=sep,
                                         only_predicted_documents=args.only_predicted_documents)
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
