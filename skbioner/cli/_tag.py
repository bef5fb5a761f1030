"""Tag raw text: plain text, JSONL, PubTator, BioC or directories in, entities out.

INPUT... are plain-text files (one document each; the id is the file stem),
JSONL files (one {"id": ..., "text": ...} object per line), PubTator files
(one document per PMID: its title, a line break and its abstract, so the
offsets are PubTator's), BioC XML or JSON collections (one document per BioC
document, its passages at their offsets), or directories of such files (by
name: .txt, .jsonl, .ndjson, .pubtator, .xml, .bioc, .json; every other entry
is named in a note on stderr, with why it was skipped).  The format of a
file is told by its name, else by its content (a first line <PMID>|t|<title>
is PubTator; a <collection> is BioC XML), else it is plain text;
--input-format forces one.  Annotations in an input file are not read: its
texts are tagged.  - is standard input (one plain-text document whose id is
stdin, or JSONL with --input-format jsonl).
Without --model they are tagged with the model bundled with skbioner (protein, DNA, RNA, cell_line,
cell_type; trained on the full JNLPBA 2004 training set: `skbioner info`
describes it).  --output-format jsonl (the default) writes one
{"id", "entities": [{"start", "end", "type", "text", "confidence"}]} line per
document into OUT (standard output if OUT is - or not given); brat writes
<id>.ann, with the confidences as AnnotatorNotes lines, and a copy <id>.txt
per document into the directory OUT; iob2 writes the tokens and labels in
the JNLPBA layout; bioc-xml and bioc-json write one BioC collection (the
texts, and the entities with their confidences as "confidence" infons) when
the run ends.  The confidence of an entity is its probability under
the model (null for models that give none: crfsuite, majority);
--min-confidence P keeps only the entities at least that probable (more
precision, less recall; docs/lab/first-hour-measurements.md measures it), --no-confidence
skips computing them (faster).  Documents are streamed (memory does not
grow with the corpus), --n-jobs N tags them in N processes (from
--parallel-from documents on; fewer are tagged in one process), a progress
bar runs on stderr when it is a terminal, and a summary line ends the run.

A document that cannot be tagged or written (undecodable, empty, an id
that cannot name a file, a token longer than --max-token-length) gets a
one-line message on stderr and the batch goes on; the exit status is then 1.
--strict stops at the first such document.  Outputs are written atomically:
a run stopped by an error, Ctrl-C or SIGTERM leaves no half-written file
(brat output: each document's .txt and .ann are written together when it is
done, so the directory holds only complete pairs).  OUT must not be an input
(nor, for brat, a directory holding an input).

--model MODEL is a file written by `skbioner train` (.skops); a
joblib/pickle model needs --allow-pickle, since loading a pickle runs any
code it contains.  The older form `skbioner tag MODEL INPUT...` still works:
a first INPUT that is a model file (.skops, .joblib, .pkl, .pickle, or a
zip or pickle by its content) is taken as the model.
"""

import errno
import os
import sys
import time

NAME = "tag"
HELP = ("tag raw text (files, directories, JSONL, PubTator, BioC) and write entities (brat, "
        "JSONL, IOB2, BioC)")


# skbioner.tagging.OUTPUT_FORMATS, repeated so that building the parser (``skbioner --help``)
# imports nothing heavy; tests/cli/test_start.py checks that the two agree.
OUTPUT_FORMATS = ("brat", "jsonl", "iob2", "bioc-xml", "bioc-json")
# skbioner.tagging.INPUT_FORMATS, likewise
INPUT_FORMATS = ("auto", "text", "jsonl", "pubtator", "bioc-xml", "bioc-json")
# skbioner.tagging.BATCH_SIZE and PARALLEL_MIN_DOCUMENTS, repeated for the same reason
BATCH_SIZE = 128
PARALLEL_MIN_DOCUMENTS = 10_000


def add_arguments(p):
    from ._predict import ALLOW_PICKLE_HELP, MODEL_HELP

    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="text, JSONL, PubTator or BioC files, or directories of them; - "
                        "reads standard input (one text document, id stdin; JSONL with "
                        "--input-format jsonl)")
    p.add_argument("-m", "--model", default=None, metavar="MODEL",
                   help=MODEL_HELP + "; several separated by commas (-m jnlpba,bc5cdr) tag "
                        "together: overlapping entities resolved by confidence, each naming "
                        "its model")
    p.add_argument("-o", "--output", default="-", metavar="OUT",
                   help="directory (brat) or file (jsonl, iob2); - or none: standard output")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="jsonl")
    p.add_argument("--min-confidence", type=float, default=None, metavar="P",
                   help="keep only the entities whose confidence is at least P (0..1)")
    p.add_argument("--no-confidence", action="store_true",
                   help="do not compute confidences (skips the forward-backward pass; "
                        "docs/lab/first-hour-measurements.md measures the time saved)")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto",
                   help="auto: by the file name (.jsonl/.ndjson, .pubtator, .xml/.bioc, "
                        ".json), else by the content (PubTator, BioC), else plain text")
    p.add_argument("--n-jobs", type=int, default=1, metavar="N",
                   help="worker processes (joblib); -1 uses every core")
    p.add_argument("--parallel-from", type=int, default=PARALLEL_MIN_DOCUMENTS, metavar="DOCS",
                   help="with --n-jobs, start worker processes only for at least DOCS "
                        "documents (fewer are tagged in one process: starting workers and "
                        "loading the model in each costs more than it saves); 0: always")
    p.add_argument("--batch-size", type=int, default=BATCH_SIZE, metavar="DOCS",
                   help="documents per predict call / parallel task")
    p.add_argument("--max-token-length", type=int, default=1000, metavar="CHARS",
                   help="documents with a longer token are reported, not tagged")
    p.add_argument("--strict", action="store_true", help="stop at the first bad document")
    p.add_argument("--encoding", default="utf-8")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress bar on stderr (auto: when stderr is a terminal)")
    p.add_argument("--allow-pickle", action="store_true", help=ALLOW_PICKLE_HELP)


# errors writing one document that concern that document only (its id, a directory where
# its file should go), not the output
_DOCUMENT_ERRNOS = {errno.ENAMETOOLONG, errno.EINVAL, errno.EILSEQ, errno.EISDIR}


#: File name endings of model files: a first INPUT ending so is the model (older usage).
MODEL_SUFFIXES = (".skops", ".joblib", ".pkl", ".pickle")


def _looks_like_a_model(path):
    """Whether ``path`` names a model file: by its ending, or a regular file that starts as
    a zip archive or a pickle does (a text or JSONL input never does).  Pipes are not read."""
    import stat

    if str(path).lower().endswith(MODEL_SUFFIXES):
        return True
    if str(path).lower().endswith((".txt", ".jsonl", ".ndjson")):
        return False
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False
    return head.startswith((b"PK\x03\x04", b"\x80"))


def _model_and_inputs(args):
    """``(model path or None, inputs)``, taking a leading model file among the inputs."""
    inputs = list(args.inputs)
    if args.model is None and inputs and _looks_like_a_model(inputs[0]):
        model = inputs.pop(0)
        if not inputs:
            raise ValueError(f"{model} is a model file: give the INPUT files to tag after it "
                             "(skbioner tag --model MODEL INPUT...)")
        return model, inputs
    return args.model, inputs


def run(args):
    from tqdm import tqdm

    from ..base import final_estimator
    from ..io._atomic import STDOUT
    from ..tagging import (
        DocumentError,
        gives_confidences,
        iter_documents,
        open_writer,
        tag_documents,
    )
    from ..tagging._tagger import Models, _model_of, model_reference, worker_count
    from ._formats import plural, printable
    from ._paths import refuse_output_over_inputs

    model_path, inputs = _model_and_inputs(args)
    args.model_file = model_path  # named if the model fails unexpectedly
    if model_path is not None and "," in model_path and not os.path.exists(model_path):
        model_path = Models.of([m.strip() for m in model_path.split(",")])  # jnlpba,bc5cdr
    paths = list(getattr(model_path, "models", [model_path]))
    if args.min_confidence is not None and not 0 <= args.min_confidence <= 1:
        raise ValueError(f"--min-confidence must be between 0 and 1, got {args.min_confidence}")
    if args.min_confidence is not None and args.no_confidence:
        raise ValueError("--min-confidence needs the confidences: drop --no-confidence")
    if args.output_format == "brat" and args.output == STDOUT:
        raise ValueError("brat output is a directory: give it with -o OUT")
    if args.output != STDOUT:
        refuse_output_over_inputs(args.output, [*paths, *inputs],
                                  directory=args.output_format == "brat")
    n_jobs = worker_count(args.n_jobs)
    if n_jobs < args.n_jobs:
        print(f"skbioner tag: note: --n-jobs {args.n_jobs} is more than the {n_jobs} cores of "
              f"this machine: {n_jobs} worker processes", file=sys.stderr)
    skipped = []
    documents = iter_documents(inputs, args.input_format, args.encoding, skipped=skipped)
    groups = {}  # a note on stderr per input directory and reason: the entries not read
    for path, reason in skipped:
        groups.setdefault((str(path.parent), reason), []).append(
            path.name + ("/" if path.is_dir() else ""))
    for (directory, reason), names in groups.items():
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        print(f"skbioner tag: note: {printable(directory)}: skipped "
              f"{plural(len(names), 'entry', 'entries')} ({printable(', '.join(names[:3]))}"
              f"{more}): {reason}", file=sys.stderr)
    ref = model_reference(model_path)  # a pipe is read once, here
    model = _model_of(ref, args.allow_pickle)  # fail fast, also with --n-jobs
    for path, one in zip(paths, getattr(model, "models", [model])):
        if args.min_confidence is not None and not gives_confidences(one):
            last = final_estimator(one)
            raise ValueError(f"--min-confidence needs a model that gives confidences; {path} "
                             f"({type(last).__name__}) gives none")
    results = tag_documents(ref if n_jobs != 1 else model, documents,
                            batch_size=args.batch_size,
                            n_jobs=n_jobs, max_token_length=args.max_token_length,
                            allow_pickle=args.allow_pickle, confidence=not args.no_confidence,
                            min_confidence=args.min_confidence,
                            parallel_from=args.parallel_from)
    disable = {"auto": None, "always": False, "never": True}[args.progress]
    n_docs = n_tokens = n_entities = n_failed = 0
    t0 = time.perf_counter()
    with open_writer(args.output_format, args.output) as writer:
        for res in tqdm(results, desc="tagging", unit="doc", disable=disable, file=sys.stderr):
            try:  # a document that cannot be written is its error; the batch goes on
                if not isinstance(res, DocumentError):
                    writer.write(res)
            except ValueError as exc:
                res = DocumentError(res.id, res.source, str(exc))
            except OSError as exc:
                if exc.errno not in _DOCUMENT_ERRNOS:
                    raise
                res = DocumentError(res.id, res.source, f"cannot be written: {exc.strerror}")
            if isinstance(res, DocumentError):
                n_failed += 1
                if args.strict:
                    kept = ("documents before it were written" if args.output_format == "brat"
                            else f"{args.output} was not written")
                    raise ValueError(f"{res} (--strict: stopping; {kept})")
                tqdm.write(f"skbioner tag: skipped {printable(str(res))}", file=sys.stderr)
                continue
            n_docs += 1
            n_tokens += res.n_tokens
            n_entities += len(res.entities)
    seconds = time.perf_counter() - t0
    if n_jobs > 1 and 0 < n_docs + n_failed < args.parallel_from:
        print(f"skbioner tag: note: fewer than {args.parallel_from:,} documents (--parallel-from):"
              f" tagged in this process, without worker processes", file=sys.stderr)
    failed = f", {n_failed} failed" if n_failed else ""
    print(f"tagged {plural(n_docs, 'document')}{failed}: {plural(n_tokens, 'token')}, "
          f"{plural(n_entities, 'entity', 'entities')} in "
          f"{seconds:.1f} s ({n_tokens / max(seconds, 1e-9):,.0f} tokens/s)", file=sys.stderr)
    return 1 if n_failed else 0
