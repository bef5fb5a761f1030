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
