"""Refusing an output path that is also an input, before anything is read or written."""

from __future__ import annotations

import os

from ..io._atomic import same_path

__all__ = ["refuse_output_over_inputs"]


def _refuse(output, source, why):
    raise ValueError(f"{output}: the output {why} ({source}); nothing was written: choose "
                     "another output path")


def refuse_output_over_inputs(output, inputs, directory=False) -> None:
    """Raise ValueError if the output ``output`` is one of ``inputs``.

    A file: an input directory also counts when ``output`` is a file in it
    that reading the directory would take as an input (``.txt``, ``.jsonl``...).
    A ``directory`` (brat output): it may not hold an input file either, whose
    ``<id>.txt`` and ``<id>.ann`` it would replace (a gold ``.ann`` beside its ``.txt``).
    """
    from ..tagging._documents import DIRECTORY_SUFFIXES

    for source in inputs:
        if source is None or os.fspath(source) == "-":  # standard input
            continue
        if same_path(output, source):
            _refuse(output, source, "directory is also an input" if directory
                    else "is also an input")
        if directory:
            if not os.path.isdir(source) and same_path(
                    os.path.dirname(os.path.abspath(source)), output):
                _refuse(output, source, "directory holds an input")
        elif os.path.isdir(source) and same_path(os.path.dirname(os.path.abspath(output)),
                                                 source) and (
                os.path.splitext(output)[1].lower() in DIRECTORY_SUFFIXES):
            _refuse(output, source, "would be read as an input of the directory")
