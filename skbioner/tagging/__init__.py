"""Raw text in, entities out: batch tagging of documents with a fitted pipeline.

:func:`iter_documents` streams documents from plain-text files, directories
and JSONL; :func:`tag_documents` tokenizes them (:class:`skbioner.text.BioTokenizer`),
tags them in batches -- in parallel through joblib if asked -- and maps the
predicted spans back to character offsets; :func:`open_writer` stores the
results as brat standoff, JSONL or IOB2, atomically.  ``skbioner tag`` is the
command-line front end.
"""

from ._documents import Document, DocumentError, iter_documents
from ._tagger import TaggedDocument, entities_from_labels, tag_documents
from ._writers import OUTPUT_FORMATS, open_writer

__all__ = ["Document", "DocumentError", "OUTPUT_FORMATS", "TaggedDocument",
           "entities_from_labels", "iter_documents", "open_writer", "tag_documents"]
