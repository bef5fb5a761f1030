"""Convert the label column of a column file to another segment representation.

Every other byte of the file (tokens, other columns, document lines, blank
lines) is copied unchanged.  Schemes: IO, IOB1, IOB2, IOE1, IOE2, IOBES, BI,
IE, BIES.  Converting to IO merges adjacent entities of the same type.
"""

NAME = "convert"
HELP = "convert labels between segment representations (IOB2, IOBES, BIES, ...)"


def add_arguments(p):
    p.add_argument("input", metavar="IN", help="column file (token ... label)")
    p.add_argument("output", metavar="OUT", help="where to write the converted file")
    p.add_argument("--to-scheme", required=True, help="target scheme, e.g. IOBES")
    p.add_argument("--from-scheme", default="IOB2", help="scheme of IN (default IOB2)")
    p.add_argument("--sep", default="\t", help="column separator (default TAB)")


def run(args):
    from ..io import read_columns, write_columns
    from ..schemes import check_scheme, convert
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, [args.input])
    src, dst = check_scheme(args.from_scheme), check_scheme(args.to_scheme)
    corpus = read_columns(args.input, sep=args.sep, scheme=src)
    y = [convert(labels, src, dst) for labels in corpus.y]
    write_columns(args.output, corpus, y=y)
    return 0
