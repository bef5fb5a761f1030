"""Tag raw text with a saved model: plain-text files, directories or JSONL in, entities out.

INPUT... are plain-text files (one document each; the id is the file stem),
directories (their *.txt and *.jsonl files) or JSONL files (one
{"id": ..., "text": ...} object per line).  --output-format brat writes
<id>.ann and a copy <id>.txt per document into the directory OUT; jsonl
writes one {"id", "entities": [{"start", "end", "type", "text"}]} line per
document into the file OUT; iob2 writes the tokens and labels in the JNLPBA
layout.  Documents are streamed (memory does not grow with the corpus),
--n-jobs N tags them in N processes, a progress bar runs on stderr when it
is a terminal, and a summary line ends the run.

A document that cannot be tagged (undecodable, empty, a token longer than
--max-token-length) gets a one-line message on stderr and the batch goes on;
the exit status is then 1.  --strict stops at the first such document.
Outputs are written atomically: a run stopped by an error, Ctrl-C or SIGTERM
leaves no half-written file (brat output: each document's files are written
when it is done).
"""

import sys
import time

NAME = "tag"
HELP = "tag raw text (files, directories, JSONL) and write entities (brat, JSONL, IOB2)"


def add_arguments(p):
    from ..tagging import OUTPUT_FORMATS

    p.add_argument("model", metavar="MODEL.joblib", help="a model saved by `skbioner train`")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="text files, directories of .txt/.jsonl files, or .jsonl files")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="directory (brat) or file (jsonl, iob2)")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="jsonl")
    p.add_argument("--input-format", choices=("auto", "text", "jsonl"), default="auto",
                   help="auto: .jsonl/.ndjson files are JSONL, other files plain text")
    p.add_argument("--n-jobs", type=int, default=1, metavar="N",
                   help="worker processes (joblib); -1 uses every core")
    p.add_argument("--batch-size", type=int, default=32, metavar="DOCS",
                   help="documents per predict call / parallel task")
    p.add_argument("--max-token-length", type=int, default=1000, metavar="CHARS",
                   help="documents with a longer token are reported, not tagged")
    p.add_argument("--strict", action="store_true", help="stop at the first bad document")
    p.add_argument("--encoding", default="utf-8")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress bar on stderr (auto: when stderr is a terminal)")


def run(args):
    import signal

    from tqdm import tqdm

    from ..tagging import DocumentError, iter_documents, open_writer, tag_documents
    from ._predict import load_model

    # SIGTERM unwinds like Ctrl-C, so the atomic writers remove their temporary files
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    model = load_model(args.model)  # fail fast on a bad model, also with --n-jobs
    if args.n_jobs != 1:
        model = None  # the workers load their own copies
    documents = iter_documents(args.inputs, args.input_format, args.encoding)
    model_ref = args.model if args.n_jobs != 1 else model
    results = tag_documents(model_ref, documents, batch_size=args.batch_size,
                            n_jobs=args.n_jobs, max_token_length=args.max_token_length)
    disable = {"auto": None, "always": False, "never": True}[args.progress]
    n_docs = n_tokens = n_entities = n_failed = 0
    t0 = time.perf_counter()
    with open_writer(args.output_format, args.output) as writer:
        for res in tqdm(results, desc="tagging", unit="doc", disable=disable, file=sys.stderr):
            if isinstance(res, DocumentError):
                n_failed += 1
                if args.strict:
                    kept = ("documents before it were written" if args.output_format == "brat"
                            else f"{args.output} was not written")
                    raise ValueError(f"{res} (--strict: stopping; {kept})")
                tqdm.write(f"skbioner tag: skipped {res}", file=sys.stderr)
                continue
            writer.write(res)
            n_docs += 1
            n_tokens += res.n_tokens
            n_entities += len(res.entities)
    seconds = time.perf_counter() - t0
    failed = f", {n_failed} failed" if n_failed else ""
    print(f"tagged {n_docs} documents{failed}: {n_tokens} tokens, {n_entities} entities in "
          f"{seconds:.1f} s ({n_tokens / max(seconds, 1e-9):,.0f} tokens/s)", file=sys.stderr)
    return 1 if n_failed else 0
