"""Pre-tokenised plain text: one sentence per line, tokens separated by whitespace."""

from __future__ import annotations

import os

from .._sentence import Sentence
from ._decode import check_controls, decode, read_bytes
from ._errors import CorpusFormatError

__all__ = ["read_tokenized"]


def read_tokenized(path, encoding="utf-8", max_sentences=None):
    """Read unlabeled sentences: one per line, tokens separated by whitespace.

    The layout of ``unlabeled/biomed-sentences.txt`` and of most word
    clustering / language model corpora.  Blank lines separate nothing and
    are skipped (they hold no token); every other line is one sentence.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is read through gzip).
    encoding : str, default="utf-8"
    max_sentences : int or None, default=None
        Read only the first ``max_sentences`` sentences.

    Returns
    -------
    list of Sentence

    Raises
    ------
    CorpusFormatError
        Undecodable bytes or a control character such as NUL (file and line
        named), an invalid gzip file, a device (``/dev/zero``), or a file
        without any sentence.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "s.txt"
    >>> _ = path.write_text("IL-2 gene expression\\n\\nNF-kappa B binds .\\n")
    >>> [list(s) for s in read_tokenized(path)]
    [['IL-2', 'gene', 'expression'], ['NF-kappa', 'B', 'binds', '.']]
    """
    if max_sentences is not None and (not isinstance(max_sentences, int)
                                      or isinstance(max_sentences, bool) or max_sentences < 1):
        raise ValueError(f"max_sentences must be None or a positive int, got {max_sentences!r}")
    path_str = os.fsdecode(os.fspath(path))
    text = decode(read_bytes(path, path_str), encoding, path_str)[0]
    check_controls(text, path_str)
    out = []
    for line in text.splitlines():
        tokens = line.split()
        if tokens:
            out.append(Sentence(tokens))
            if max_sentences is not None and len(out) >= max_sentences:
                break
    if not out:
        raise CorpusFormatError(path_str, None, "the file has no sentence (no token on any line)")
    return out
