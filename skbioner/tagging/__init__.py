"""Raw text in, entities out: batch tagging of documents with a fitted pipeline.

:func:`tag_text` tags strings in one line (``skbioner.tag_text("...")``),
with the bundled JNLPBA model unless given another (:func:`skbioner.load_model`);
:func:`iter_documents` streams documents from plain-text files, directories,
JSONL, PubTator and BioC; :func:`tag_documents` tokenizes them
(:class:`skbioner.text.BioTokenizer`),
tags them in batches -- in parallel through joblib if asked -- and maps the
predicted spans back to character offsets, each entity with its confidence;
:func:`open_writer` stores the results as brat standoff, JSONL or IOB2,
atomically.  ``skbioner tag`` is the command-line front end.
"""

from ._bundled import BUNDLED_MODEL, BUNDLED_MODELS, bundled_model_path
from ._documents import INPUT_FORMATS, Document, DocumentError, iter_documents
from ._tagger import (
    TaggedDocument,
    TaggedEntity,
    entities_from_labels,
    gives_confidences,
    merge_tagged,
    tag_documents,
)
from ._text import tag_text
from ._writers import OUTPUT_FORMATS, open_writer

__all__ = ["BUNDLED_MODEL", "BUNDLED_MODELS", "Document", "DocumentError", "INPUT_FORMATS",
           "OUTPUT_FORMATS", "TaggedDocument", "TaggedEntity", "bundled_model_path",
           "entities_from_labels", "gives_confidences", "iter_documents", "merge_tagged",
           "open_writer", "tag_documents", "tag_text"]
