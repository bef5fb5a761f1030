"""One-line tagging of raw text from Python: ``skbioner.tag_text("...")``."""

from __future__ import annotations

from collections.abc import Iterable

from ._documents import Document, DocumentError
from ._tagger import BATCH_SIZE, _check_min_confidence, _model_of, tag_documents

__all__ = ["tag_text"]


def tag_text(text, model=None, *, confidence=True, min_confidence=None, batch_size=BATCH_SIZE,
             tokenizer=None):
    """Find the entities of raw text: one string, or many (streamed).

    The text is split into sentences and tokens by
    :class:`~skbioner.text.BioTokenizer`, tagged by ``model`` (by default
    the bundled JNLPBA model, loaded once and kept), and each entity comes
    back with its type, character offsets, text and confidence.

    Parameters
    ----------
    text : str or iterable of str
        One text, or texts (a list, a generator, lines of a file...).
    model : estimator, path or None, default=None
        A fitted pipeline (what ``skbioner train`` saves, or
        :func:`skbioner.load_model` returns), the path of its file, or the
        name of a bundled model (``"bc5cdr"``: chemicals and diseases); None:
        the bundled JNLPBA model (``protein``, ``DNA``, ``RNA``,
        ``cell_line``, ``cell_type``).
    confidence : bool, default=True
        Compute each entity's probability (see :class:`TaggedEntity`).
    min_confidence : float or None, default=None
        Keep only the entities at least this probable (more precision,
        less recall); needs a model that gives confidences.
    batch_size : int, default=128
        Texts tagged per model call when ``text`` is an iterable.
    tokenizer : BioTokenizer, optional

    Returns
    -------
    list of TaggedEntity, or iterator of list of TaggedEntity
        For one string, its entities in text order
        (``text[e.start:e.end] == e.text``); for an iterable, an iterator
        giving each text's list in input order, consuming the texts lazily
        (memory bounded by ``batch_size`` texts).  An empty or blank text
        has no entities.

    Raises
    ------
    TypeError
        For an item that is not a string (naming its index).
    ValueError
        For a text that cannot be tagged (a token longer than 1,000
        characters), naming its index; for ``min_confidence`` with a model
        without confidences.

    Examples
    --------
    >>> import skbioner
    >>> for e in skbioner.tag_text("The c-myc gene is expressed in HeLa cells."):
    ...     print(e.type, e.start, e.end, repr(e.text), round(e.confidence, 2))
    DNA 4 14 'c-myc gene' 0.65
    cell_line 31 41 'HeLa cells' 0.99
    >>> [len(ents) for ents in skbioner.tag_text(["p53 binds DNA.", "", "No entity here."])]
    [1, 0, 0]
    """
    min_confidence = _check_min_confidence(min_confidence)
    model = _model_of(model)
    if isinstance(text, str):
        return next(_tag_texts([text], model, confidence, min_confidence, 1, tokenizer))
    if not isinstance(text, Iterable):
        raise TypeError(f"text must be a string or an iterable of strings, got "
                        f"{type(text).__name__}")
    return _tag_texts(text, model, confidence, min_confidence, batch_size, tokenizer)


def _documents(texts):
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise TypeError(f"text {i} is a {type(t).__name__}, not a string")
        yield Document(str(i), t, f"text {i}")


def _tag_texts(texts, model, confidence, min_confidence, batch_size, tokenizer):
    for res in tag_documents(model, _documents(texts), tokenizer=tokenizer,
                             batch_size=batch_size, confidence=confidence,
                             min_confidence=min_confidence):
        if isinstance(res, DocumentError):
            if res.message == "no token in the document":
                yield []
                continue
            raise ValueError(f"{res.source}: {res.message}")
        yield list(res.entities)
