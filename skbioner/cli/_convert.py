"""Convert a labelled corpus between formats, or a column file's labels between schemes.

Formats: columns (token ... label lines: JNLPBA, CoNLL), brat (a directory of
<id>.txt + <id>.ann), pubtator, bioc-xml, bioc-json, jsonl ({"id", "text",
"entities"} lines).  IN's format is detected (--from to say it), OUT's comes
from its extension (.iob2/.conll/.tsv, .pubtator, .xml, .json, .jsonl; a
directory or a name without extension is brat; --to to say it).

Between the formats with texts (brat, PubTator, BioC, JSONL) document ids,
texts and entities (type, offsets) are kept; what only one format holds is
not: brat's relations, events, attributes and notes, PubTator's concept ids
and relations, BioC's annotation ids, infons, relations and passage
structure (written back as one passage per line), the line breaks of a text beyond the first in
PubTator (written as spaces, offsets unchanged), a text's final line breaks in
BioC, an entity's fragments in PubTator (its whole span is written).

A column file becomes text by joining its tokens with spaces, one sentence per
line: ids, tokens and entities survive, the original spacing of the text does
not exist.  Back to columns, texts are tokenized (--tokenizer bio: the
JNLPBA/GENIA rules, words cut at entity boundaries; whitespace: lines are
sentences and spaces separate tokens, which gives a converted column file's
tokens and sentences back exactly) and labelled IOB2 (--to-scheme for
another).  Entities labels cannot hold (nested, overlapping) are reported.

Column file to column file: the label column is rewritten in --to-scheme
(IO, IOB1, IOB2, IOE1, IOE2, IOBES, BI, IE, BIES) and every other byte of the
file is copied.  Converting to IO merges adjacent entities of the same type.
"""

import sys

NAME = "convert"
HELP = "convert a corpus between formats (columns, brat, PubTator, BioC, JSONL) or schemes"


def add_arguments(p):
    from ._formats import FORMAT_CHOICES, SEP_HELP

    p.add_argument("input", metavar="IN", help="labelled corpus: file or brat directory")
    p.add_argument("output", metavar="OUT",
                   help="file, or directory for brat; - for standard output (with --to)")
    p.add_argument("--from", dest="from_format", choices=FORMAT_CHOICES, default="auto",
                   help="format of IN (default: detected)")
    p.add_argument("--to", dest="to_format", choices=FORMAT_CHOICES, default="auto",
                   help="format of OUT (default: from its extension; a directory is brat)")
    p.add_argument("--to-scheme", default=None,
                   help="label scheme of a column OUT, e.g. IOBES (default IOB2)")
    p.add_argument("--from-scheme", default="IOB2", help="label scheme of a column IN "
                                                         "(default IOB2)")
    p.add_argument("--sep", default="auto", help=SEP_HELP)
    p.add_argument("--tokenizer", choices=("bio", "whitespace"), default="bio",
                   help="how texts are tokenized for a column OUT (default bio)")


def run(args):
    from ..io import (
        ColumnCorpus,
        corpus_to_documents,
        detect_format,
        read_columns,
        read_documents,
        write_columns,
        write_documents,
    )
    from ..schemes import check_scheme, convert
    from ._formats import output_format, plural, separator, warnings_on_stderr
    from ._paths import refuse_output_over_inputs

    src = args.from_format if args.from_format != "auto" else detect_format(args.input)
    # a column file's labels in another scheme: OUT is a column file whatever its name
    dst = output_format(args.output, args.to_format, "columns" if args.to_scheme else None)
    if dst == "brat" and args.output == "-":
        raise ValueError("brat output is a directory: give its path (- is standard "
                         "output, for the other formats)")
    refuse_output_over_inputs(args.output, [args.input], directory=dst == "brat")
    from_scheme = check_scheme(args.from_scheme)
    to_scheme = check_scheme(args.to_scheme) if args.to_scheme else None
    if to_scheme is not None and dst != "columns":
        raise ValueError(f"--to-scheme applies to a column OUT; {args.output} is {dst}")
    if from_scheme != "IOB2" and src != "columns":
        raise ValueError(f"--from-scheme applies to a column IN; {args.input} is {src}")
    if src == dst == "columns" and to_scheme is None and from_scheme == "IOB2":
        raise ValueError("IN and OUT are both IOB2 column files: give --to-scheme (or "
                         "--from-scheme, or an OUT of another format)")
    sep = separator(args.sep)
    with warnings_on_stderr("convert"):
        if src == "columns":
            corpus = read_columns(args.input, sep=sep, scheme=from_scheme)
        if src == dst == "columns":  # the label column rewritten (--to-scheme's default: IOB2)
            write_columns(args.output, corpus, y=[convert(labels, from_scheme, to_scheme or "IOB2")
                                                  for labels in corpus.y])
            return 0
        docs = read_documents(args.input, src) if src != "columns" else corpus_to_documents(
            corpus, [convert(labels, from_scheme, "IOB2") for labels in corpus.y])
        if dst != "columns":
            write_documents(args.output, docs, dst)
        else:
            from ..text import tokenize_documents

            X, y = tokenize_documents(docs, None if args.tokenizer == "bio" else "whitespace")
            if to_scheme not in (None, "IOB2"):
                y = [convert(labels, "IOB2", to_scheme) for labels in y]
            write_columns(args.output, ColumnCorpus(X=X, y=y, doc_ids=[s.doc_id for s in X],
                                                    path=str(args.output)))
    n_entities = sum(len(d.entities) for d in docs)
    print(f"converted {plural(len(docs), 'document')} "
          f"({plural(n_entities, 'entity', 'entities')}) from {src} to {dst}: "
          f"{args.output}", file=sys.stderr)
    return 0

