"""Corpus directories for benchmarks: train / devel / test column files, however named."""

from pathlib import Path

from skbioner.io import read_columns

SPLITS = {"train": ("train",), "devel": ("devel", "dev"), "test": ("test",)}
SUFFIXES = (".iob2", ".tsv", ".conll", ".txt")


def find(directory, split):
    """Path of a split's file in ``directory`` (``train.iob2``, ``devel.tsv``...), or None."""
    for stem in SPLITS[split]:
        for suffix in SUFFIXES:
            p = Path(directory) / f"{stem}{suffix}"
            if p.is_file():
                return p
    return None


def load_corpus(directory):
    """``{"train": ColumnCorpus, "devel": ColumnCorpus or None, "test": ColumnCorpus}``."""
    out = {}
    for split in SPLITS:
        path = find(directory, split)
        if path is None and split != "devel":
            raise SystemExit(f"{directory}: no {split} file ({'/'.join(SPLITS[split])}"
                             f"{{{','.join(SUFFIXES)}}})")
        out[split] = None if path is None else read_columns(path)
    return out


def held_out_documents(directory, test):
    """Indices of ``test``'s sentences whose documents the training file does not hold.

    JNLPBA: 10 of the 404 test abstracts are also training abstracts
    (``skbioner.datasets.jnlpba_overlap_ids``); the score on the other 394 (these sentences)
    goes beside every official test figure.  A corpus without document ids has none.
    Returns ``(indices, overlapping document ids)``.
    """
    from skbioner.datasets import jnlpba_overlap_ids

    overlap = {d for d in jnlpba_overlap_ids(find(directory, "train"), find(directory, "test"))
               if d is not None}
    keep = [i for i, d in enumerate(test.doc_ids) if d not in overlap]
    return keep, sorted(overlap)


def exact_f1_on(y, pred, keep):
    """Official exact F1 of the sentences ``keep`` only."""
    from skbioner.metrics import entity_f1_score

    return entity_f1_score([y[i] for i in keep], [pred[i] for i in keep])
