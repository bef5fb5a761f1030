"""Pre-tokenised plain text: one sentence per line, tokens separated by whitespace."""

from __future__ import annotations

import os

from .._sentence import Sentence
from ._decode import text_lines
from ._errors import CorpusFormatError

__all__ = ["read_tokenized"]

#: Most tokens a line (one sentence) may hold.
MAX_SENTENCE_TOKENS = 10_000


def read_tokenized(path, encoding="utf-8", max_sentences=None, max_tokens=None):
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
    max_tokens : int or None, default=None
        Stop reading once the sentences read hold this many tokens.  The
        file is read as a stream: a line of more than
        :data:`MAX_SENTENCE_TOKENS` tokens (or a million characters) is
        refused, file and line named, before the next is read.

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
    out, total = [], 0
    for n, line in text_lines(path, path_str, encoding):
        for tokens in map(str.split, line.splitlines()):  # also at U+2028, U+0085
            if len(tokens) > MAX_SENTENCE_TOKENS:
                raise CorpusFormatError(path_str, n, f"a line of {len(tokens):,} tokens, more "
                                        f"than the {MAX_SENTENCE_TOKENS:,} of a sentence (one "
                                        "sentence per line expected)")
            if tokens:
                out.append(Sentence(tokens))
                total += len(tokens)
        if len(out) >= (max_sentences or len(out) + 1) or total >= (max_tokens or total + 1):
            del out[max_sentences or len(out):]
            break
    if not out:
        raise CorpusFormatError(path_str, None, "the file has no sentence (no token on any line)")
    return out
