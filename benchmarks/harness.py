"""What every benchmark shares: corpora and their splits, official scoring, timing, records.

A benchmark script answers one question.  It loads corpora with :func:`load`
(``"fit"``/``"dev"`` to make a choice, ``"train"``/``"test"`` to report it),
scores with :func:`evaluate` (the official JNLPBA 2004 counts; on the JNLPBA
test file also the F1 on the abstracts that are not in the training data),
times with :class:`Stopwatch` or runs a measurement in a fresh process with
:func:`isolated` (so peak RSS is its own), and ends with :func:`finish`: the
records go to ``benchmarks/results.jsonl`` when ``--store`` is given (that file
is what ``docs/results.md`` is generated from, by ``benchmarks/make_results.py``)
and one JSON object is the last line of stdout.

Splits (:data:`SPLITS`):

``fit``
    What a model is trained on to make a choice: the JNLPBA training abstracts
    but the last 10% (:func:`skbioner.datasets.train_dev_split`); a corpus
    with a devel file: its training file.
``dev``
    Where choices are scored: the last 10% of the JNLPBA training abstracts;
    a corpus's devel file.
``train``
    What a reported model is trained on: the whole training file.
``train+dev``
    The training and devel files together (for a final model trained after
    its choices were made on ``dev``; JNLPBA has no devel file: = ``train``).
``test``
    The test file: reported once, never used for a choice.

A script that takes any corpus directory (not one of :data:`CORPORA`) reads it
with :func:`load_directory`; a measurement run as a command in a fresh process
(rather than a function, :func:`isolated`) goes through :func:`run_child`.

Scripts import this module as ``import harness`` (``benchmarks/`` is on
``sys.path`` when a script in it runs; a script in a subfolder of
``benchmarks/`` puts its parent there first).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
#: Where ``--store`` appends records; ``benchmarks/make_results.py`` reads it.
RESULTS = HERE / "results.jsonl"
SPLITS = ("fit", "dev", "train", "train+dev", "test")


@dataclass(frozen=True)
class CorpusSpec:
    """Where a labelled corpus lives under the data directory and how it splits.

    Attributes
    ----------
    name : str
    directory : str
        Folder under the data root.
    files : dict
        File name of each of ``train``, ``devel`` (None: carved from train by
        abstracts) and ``test``.
    unlabeled : str
        The unlabeled file without this corpus's test sentences (for word
        classes, HMM states).
    """

    name: str
    directory: str
    files: dict
    unlabeled: str


CORPORA = {
    "jnlpba": CorpusSpec("jnlpba", "jnlpba",
                         {"train": "train.iob2", "devel": None, "test": "test.iob2"},
                         "unlabeled/biomed-sentences.txt"),
    "bionlp13cg": CorpusSpec("bionlp13cg", "bionlp13cg",
                             {"train": "train.tsv", "devel": "devel.tsv", "test": "test.tsv"},
                             "unlabeled/biomed-sentences-no-bionlp13cg.txt"),
    "bc5cdr": CorpusSpec("bc5cdr", "bc5cdr",
                         {"train": "train.tsv", "devel": "devel.tsv", "test": "test.tsv"},
                         "unlabeled/biomed-sentences.txt"),
}


def data_root(value=None) -> Path:
    """The data directory: ``value``, else ``$SKBIONER_DATA``, else ``../shared/data``."""
    root = value or os.environ.get("SKBIONER_DATA") or REPO.parent / "shared" / "data"
    return Path(root)


def add_arguments(parser: argparse.ArgumentParser, corpora=True) -> argparse.ArgumentParser:
    """The options every benchmark takes: ``--data``, ``--corpora``, ``--store``."""
    parser.add_argument("--data", default=None,
                        help="data directory holding jnlpba/, bionlp13cg/, bc5cdr/, unlabeled/ "
                             "(default: $SKBIONER_DATA or ../shared/data)")
    if corpora:
        parser.add_argument("--corpora", default="jnlpba",
                            help=f"comma-separated, from {', '.join(CORPORA)}")
    parser.add_argument("--store", action="store_true",
                        help=f"append the records to {RESULTS.relative_to(REPO)} (the source of "
                             "docs/results.md)")
    return parser


def corpus_names(value: str) -> list[str]:
    """``"jnlpba,bc5cdr"`` -> the names, checked against :data:`CORPORA`."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in CORPORA]
    if unknown or not names:
        raise SystemExit(f"unknown corpora {unknown}; choose from {', '.join(CORPORA)}")
    return names


def _read(path):
    from skbioner.io import read_columns

    if not path.is_file():
        raise SystemExit(f"{path}: missing (see --data)")
    return read_columns(path)


class Split:
    """Sentences, IOB2 labels and document ids of one split of a corpus.

    Attributes
    ----------
    X, y, doc_ids : list
    corpus, split : str
    n_tokens : int
    """

    def __init__(self, X, y, doc_ids, corpus, split):
        self.X, self.y, self.doc_ids = list(X), list(y), list(doc_ids)
        self.corpus, self.split = corpus, split
        self.n_tokens = sum(map(len, self.X))

    def __len__(self):
        return len(self.X)

    def subset(self, idx, split=None):
        """The sentences at ``idx`` as a new :class:`Split`."""
        return Split([self.X[i] for i in idx], [self.y[i] for i in idx],
                     [self.doc_ids[i] for i in idx], self.corpus, split or self.split)


_CACHE: dict = {}


def load(corpus: str, split: str, data=None) -> Split:
    """One split of a corpus (see the module docstring for what each split is).

    Parameters
    ----------
    corpus : str
        A key of :data:`CORPORA`.
    split : {"fit", "dev", "train", "train+dev", "test"}
    data : path, optional
        Data root (:func:`data_root`).

    Returns
    -------
    Split
    """
    from skbioner.datasets import train_dev_split

    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    spec = CORPORA[corpus]
    folder = data_root(data) / spec.directory
    key = (str(folder), split)
    if key in _CACHE:
        return _CACHE[key]

    def file(role):
        c = _read(folder / spec.files[role])
        return Split(c.X, c.y, c.doc_ids, corpus, role)

    if split == "test":
        out = file("test")
    elif spec.files["devel"] is None:  # carved from the training abstracts
        train = file("train")
        fit_idx, dev_idx = train_dev_split(train.doc_ids)
        out = {"train": train, "train+dev": train, "fit": train.subset(fit_idx, "fit"),
               "dev": train.subset(dev_idx, "dev")}[split]
    else:
        if split in ("fit", "train"):
            out = file("train")
        elif split == "dev":
            out = file("devel")
        else:
            a, b = file("train"), file("devel")
            out = Split(a.X + b.X, a.y + b.y, a.doc_ids + b.doc_ids, corpus, split)
    out.split = split
    _CACHE[key] = out
    return out


#: How a corpus directory names its files (``train.iob2``, ``devel.tsv``, ``dev.conll``...).
FILE_STEMS = {"train": ("train",), "devel": ("devel", "dev"), "test": ("test",)}
FILE_SUFFIXES = (".iob2", ".tsv", ".conll", ".txt")


def find_file(directory, role):
    """Path of the ``role`` file (train, devel, test) in a corpus directory, or None."""
    for stem in FILE_STEMS[role]:
        for suffix in FILE_SUFFIXES:
            if (p := Path(directory) / f"{stem}{suffix}").is_file():
                return p
    return None


def load_directory(directory) -> dict:
    """Any corpus directory: ``{"train", "devel" (None when absent), "test"}`` column corpora."""
    from skbioner.io import read_columns

    out = {}
    for role, stems in FILE_STEMS.items():
        path = find_file(directory, role)
        if path is None and role != "devel":
            raise SystemExit(f"{directory}: no {role} file ({'/'.join(stems)}"
                             f"{{{','.join(FILE_SUFFIXES)}}})")
        out[role] = None if path is None else read_columns(path)
    return out


def held_out_documents(directory, test):
    """``(indices, ids)``: ``test``'s sentences whose documents the training file lacks.

    The score on those sentences goes beside every official test figure (see
    :func:`overlap_ids`); ``ids``: the documents of both files, sorted.  A corpus without
    document ids has none.
    """
    from skbioner.datasets import jnlpba_overlap_ids

    # a file without document lines gives every sentence the id "": no documents at all
    seen = {d for d in jnlpba_overlap_ids(find_file(directory, "train"),
                                          find_file(directory, "test")) if d}
    return [i for i, d in enumerate(test.doc_ids) if d not in seen], sorted(seen)


def exact_f1_on(y, pred, keep) -> float:
    """Official exact F1 of the sentences ``keep`` only."""
    from skbioner.metrics import entity_f1_score

    return entity_f1_score([y[i] for i in keep], [pred[i] for i in keep])


def overlap_ids(corpus: str, data=None) -> set:
    """Document ids of the test file that are also in the training file.

    JNLPBA: 10 of the 404 test abstracts (same MEDLINE ids) are GENIA 3.02
    abstracts, hence also training abstracts.  Corpora without document ids
    have none.
    """
    from skbioner.datasets import jnlpba_overlap_ids

    if corpus != "jnlpba":
        return set()
    spec = CORPORA[corpus]
    folder = data_root(data) / spec.directory
    return set(jnlpba_overlap_ids(folder / spec.files["train"], folder / spec.files["test"]))


def evaluate(gold: Split, y_pred, data=None) -> dict:
    """Official-count scores of ``y_pred`` against ``gold``.

    Returns
    -------
    dict
        ``exact_f1``, ``left_f1``, ``right_f1``, ``exact_precision``,
        ``exact_recall``, ``per_class_exact_f1`` and, on a test file with
        documents also in the training data, ``exact_f1_unseen`` (the
        abstracts not in the training data) with ``n_unseen_documents``.
    """
    from skbioner.metrics import entity_report

    rep = entity_report(gold.y, y_pred)
    out = {"exact_f1": rep.overall.exact.f1, "left_f1": rep.overall.left.f1,
           "right_f1": rep.overall.right.f1, "exact_precision": rep.overall.exact.precision,
           "exact_recall": rep.overall.exact.recall,
           "per_class_exact_f1": {c: s.exact.f1 for c, s in rep.per_class.items()}}
    if gold.split == "test":
        seen = overlap_ids(gold.corpus, data)
        if seen:
            keep = [i for i, d in enumerate(gold.doc_ids) if d not in seen]
            unseen = entity_report([gold.y[i] for i in keep], [y_pred[i] for i in keep])
            out["exact_f1_unseen"] = unseen.overall.exact.f1
            # abstracts, counted as runs of sentences (two test abstracts share an id)
            runs = [d for k, d in enumerate(gold.doc_ids) if k == 0 or d != gold.doc_ids[k - 1]]
            out["n_unseen_documents"] = sum(d not in seen for d in runs)
    return out


class Stopwatch:
    """Wall and CPU seconds of a block (CPU of this process and its waited children).

    >>> with Stopwatch() as sw:                                 # doctest: +SKIP
    ...     model.fit(X, y)
    >>> sw.wall, sw.cpu                                         # doctest: +SKIP
    """

    @staticmethod
    def _cpu():
        own, kids = resource.getrusage(resource.RUSAGE_SELF), \
            resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def __enter__(self):
        self._t, self._c = time.perf_counter(), self._cpu()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._t
        self.cpu = self._cpu() - self._c
        return False


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def tagging_speed(model, X, passes=3):
    """``(y_pred, tokens_per_second)``: the best of ``passes`` calls after a first one.

    The first call pays one-time costs (compiled kernels loaded, weights
    touched); the steady state is what a tagging service sees.  The passes
    must agree (tagging is deterministic).
    """
    n = sum(map(len, X))
    pred = model.predict(X)
    best = float("inf")
    for _ in range(passes):
        with Stopwatch() as sw:
            again = model.predict(X)
        best = min(best, sw.wall)
        if list(map(list, again)) != list(map(list, pred)):
            raise AssertionError("tagging is not deterministic")
    return pred, n / best


def model_size_mb(model) -> float:
    """Size of ``model`` saved as ``skbioner train`` saves it (``.skops``), MB."""
    import tempfile

    from skbioner.io import save_model

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.skops"
        save_model(model, path)
        return path.stat().st_size / 1e6


def isolated(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a fresh Python process; its result gets ``peak_rss_mb``.

    ``fn`` must be a module-level function of the calling script returning a
    dict (the script must guard its entry point with ``if __name__ ==
    "__main__"``).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        return pool.submit(_with_rss, fn, args, kwargs).result()


def run_child(cmd, what) -> dict:
    """Run the command ``cmd``; the JSON object on the last line of its stdout.

    On failure the child's stderr is shown and the benchmark stops, naming ``what``.
    """
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"{what} failed with exit code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def ratios_against(results, peer, quality) -> dict:
    """Per model, speed and memory ratios against ``peer`` and the difference in ``quality``.

    Keys: ``train_speedup`` (when both have ``train_seconds``), ``tagging_speedup``,
    ``rss_ratio`` and ``<quality>_delta``; ``{}`` when ``peer`` did not run.
    """
    if peer not in results:
        return {}
    base, out = results[peer], {}
    for name, res in results.items():
        if name == peer:
            continue
        r = out[name] = {
            "tagging_speedup": res["tag_tokens_per_second"] / base["tag_tokens_per_second"],
            "rss_ratio": res["peak_rss_mb"] / base["peak_rss_mb"],
            f"{quality}_delta": res[quality] - base[quality],
        }
        if "train_seconds" in res and "train_seconds" in base:
            r["train_speedup"] = base["train_seconds"] / res["train_seconds"]
    return out


def _with_rss(fn, args, kwargs):
    out = fn(*args, **kwargs)
    out.setdefault("peak_rss_mb", peak_rss_mb())
    # joblib's idle worker processes: the child joins them when it exits, and they would
    # otherwise wait out their idle timeout (300 s) first
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)
    return out


def _git(*args):
    try:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def provenance() -> dict:
    """Where and when a record was measured: commit, date, machine, load, command."""
    commit = _git("rev-parse", "--short", "HEAD")
    if commit and _git("status", "--porcelain", "--untracked-files=no", "--", "skbioner"):
        commit += "+dirty"
    script = Path(sys.argv[0]).resolve()
    try:
        script = script.relative_to(REPO)
    except ValueError:
        pass
    from skbioner import __version__

    return {
        "command": shlex.join(["python", str(script), *sys.argv[1:]]),
        "commit": commit,
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "skbioner": __version__,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def record(question: str, system: str, corpus: str, split: str, *, headline=False,
           **fields) -> dict:
    """One result record.

    Parameters
    ----------
    question : str
        What the benchmark answers (``"systems"``, ``"word-classes"``...): the
        section of ``docs/results.md`` the record appears in.
    system : str
        What was measured (a preset name, ``"online-crf +word-classes"``...).
    corpus, split : str
        Where it was scored (``split`` "dev" or "test").
    headline : bool, default=False
        A whole system trained by one documented command: a row of the
        headline table of ``docs/results.md``.
    **fields
        The measurements (:func:`evaluate`'s scores, ``train_seconds``,
        ``tag_tokens_per_second``, ``model_mb``, ``peak_rss_mb``, ``cli``: the
        ``skbioner train`` command that builds the same system...).

    Returns
    -------
    dict
    """
    return {"question": question, "system": system, "corpus": corpus, "split": split,
            "headline": bool(headline), **fields, **provenance()}


def finish(records, args=None, summary=None) -> None:
    """Store ``records`` (with ``--store``) and print the last line: one JSON object."""
    records = list(records)
    if args is not None and getattr(args, "store", False):
        with open(RESULTS, "a", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
        print(f"{len(records)} records appended to {RESULTS.relative_to(REPO)}", file=sys.stderr)
    print(json.dumps({"records": records, **(summary or {})}))


def read_results(path=RESULTS) -> list[dict]:
    """Every stored record, oldest first."""
    if not Path(path).is_file():
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
