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

A document that cannot be tagged or written (undecodable, empty, an id
that cannot name a file, a token longer than --max-token-length) gets a
one-line message on stderr and the batch goes on; the exit status is then 1.
--strict stops at the first such document.  Outputs are written atomically:
a run stopped by an error, Ctrl-C or SIGTERM leaves no half-written file
(brat output: each document's .txt and .ann are written together when it is
done, so the directory holds only complete pairs).  OUT must not be an input
(nor, for brat, a directory holding an input).

MODEL is a file written by `skbioner train` (.skops); a joblib/pickle model
needs --allow-pickle, since loading a pickle runs any code it contains.
"""

import errno
import sys
import time

NAME = "tag"
HELP = "tag raw text (files, directories, JSONL) and write entities (brat, JSONL, IOB2)"


def add_arguments(p):
    from ..tagging import OUTPUT_FORMATS
    from ._predict import ALLOW_PICKLE_HELP

    p.add_argument("model", metavar="MODEL", help="a model saved by `skbioner train` (.skops)")
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
    p.add_argument("--allow-pickle", action="store_true", help=ALLOW_PICKLE_HELP)


# errors writing one document that concern that document only (its id), not the output
_DOCUMENT_ERRNOS = {errno.ENAMETOOLONG, errno.EINVAL, errno.EILSEQ}


def _write_problem(writer, res):
    """Write ``res``; a message if that document cannot be written (the batch goes on)."""
    try:
        writer.write(res)
    except ValueError as exc:
        return str(exc)
    except OSError as exc:
        if exc.errno not in _DOCUMENT_ERRNOS:
            raise
        return f"cannot be written: {exc.strerror}"
    return None


#: Seconds a run stopped by SIGTERM may spend cleaning up before it exits regardless.
TERM_GRACE_SECONDS = 10


def _on_sigterm(signum, frame):
    """SIGTERM unwinds like Ctrl-C (the atomic writers remove their temporary files).

    Should shutting down worker processes hang, the process exits anyway after
    :data:`TERM_GRACE_SECONDS`, or at once on a second SIGTERM; outputs are
    whole either way.
    """
    import os
    import threading

    if getattr(_on_sigterm, "fired", False):
        os._exit(143)
    _on_sigterm.fired = True
    watchdog = threading.Timer(TERM_GRACE_SECONDS, os._exit, args=(143,))
    watchdog.daemon = True
    watchdog.start()
    sys.exit(143)


def run(args):
    import signal

    _on_sigterm.fired = False
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(args):
    from tqdm import tqdm

    from ..tagging import DocumentError, iter_documents, open_writer, tag_documents
    from ._paths import refuse_output_dir_over_inputs, refuse_output_over_inputs
    from ._predict import load_model

    if args.output_format == "brat":
        refuse_output_dir_over_inputs(args.output, [args.model, *args.inputs])
    else:
        refuse_output_over_inputs(args.output, [args.model, *args.inputs])
    documents = iter_documents(args.inputs, args.input_format, args.encoding)
    model = load_model(args.model, args.allow_pickle)  # fail fast, also with --n-jobs
    if args.n_jobs != 1:
        model = None  # the workers load their own copies
    model_ref = args.model if args.n_jobs != 1 else model
    results = tag_documents(model_ref, documents, batch_size=args.batch_size,
                            n_jobs=args.n_jobs, max_token_length=args.max_token_length,
                            allow_pickle=args.allow_pickle)
    disable = {"auto": None, "always": False, "never": True}[args.progress]
    n_docs = n_tokens = n_entities = n_failed = 0
    t0 = time.perf_counter()
    with open_writer(args.output_format, args.output) as writer:
        for res in tqdm(results, desc="tagging", unit="doc", disable=disable, file=sys.stderr):
            if not isinstance(res, DocumentError):
                problem = _write_problem(writer, res)
                if problem is not None:
                    res = DocumentError(res.id, res.source, problem)
            if isinstance(res, DocumentError):
                n_failed += 1
                if args.strict:
                    kept = ("documents before it were written" if args.output_format == "brat"
                            else f"{args.output} was not written")
                    raise ValueError(f"{res} (--strict: stopping; {kept})")
                tqdm.write(f"skbioner tag: skipped {res}", file=sys.stderr)
                continue
            n_docs += 1
            n_tokens += res.n_tokens
            n_entities += len(res.entities)
    seconds = time.perf_counter() - t0
    failed = f", {n_failed} failed" if n_failed else ""
    print(f"tagged {n_docs} documents{failed}: {n_tokens} tokens, {n_entities} entities in "
          f"{seconds:.1f} s ({n_tokens / max(seconds, 1e-9):,.0f} tokens/s)", file=sys.stderr)
    return 1 if n_failed else 0
