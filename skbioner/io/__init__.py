"""Reading and writing corpus files.

* Column files -- JNLPBA / GENIA IOB2 (``token<TAB>label``, ``###MEDLINE:``
  document lines) and CoNLL style (space-separated columns, ``-DOCSTART-``
  lines): :func:`read_columns`, :func:`read_jnlpba`, :func:`read_conll`,
  :func:`write_columns`.  Files are written back byte for byte, optionally
  with new labels.
* Pre-tokenised text, one sentence per line (unlabeled corpora):
  :func:`read_tokenized`.
* Word class tables (``skbioner clusters``, the annotator's bundled classes):
  :func:`read_word_classes`, :func:`write_word_classes`.
* brat standoff (``<id>.txt`` + ``<id>.ann``): :func:`read_brat`,
  :func:`read_brat_dir`, :func:`write_brat`, :func:`entities_from_spans`.
* PubTator (:func:`read_pubtator`, :func:`write_pubtator`), BioC XML and
  JSON through the ``bioc`` package (:func:`read_bioc`, :func:`write_bioc`),
  JSONL documents (:func:`read_jsonl`, :func:`write_jsonl`): texts with
  character-offset entities, as :class:`BratDocument` objects.
* Any of these: :func:`detect_format`, :func:`read_documents`,
  :func:`write_documents`; :func:`corpus_to_documents` writes a column
  file's tokens as text.  Sentences, IOB2 labels and document ids for
  training, whatever the format (texts tokenized with the entity offsets as
  token boundaries): :func:`skbioner.datasets.load_corpus`.
* Model files: :func:`save_model` / :func:`load_model` -- the safe ``.skops``
  format, which loads without running code, and joblib pickles on request;
  :func:`model_metadata` reads what a file records about its model (training
  data, versions) without loading it.

Loading a pickle (``joblib.load``, ``pickle.load``) runs whatever code the
file contains, so a model file from someone else is as dangerous as their
script.  :func:`load_model` reads the skops format, checks the archive's
member sizes against the arrays' declared shapes and every type the file
names against an explicit allowlist (:data:`TRUSTED_TYPES`: the suite's own
estimators and the scikit-learn, numpy, scipy and Python types they are
built from; no function reference ever) before building anything, and
refuses pickles unless ``allow_pickle=True``.  Outputs are written
atomically: a failed or interrupted write leaves an existing file as it
was; an output that is a FIFO or a device is written in place, never
replaced.

Every malformed input raises :class:`CorpusFormatError`, naming the file and
the line.
"""

from ._bioc import read_bioc, write_bioc
from ._brat import BratDocument, Entity, entities_from_spans, read_brat, read_brat_dir, write_brat
from ._columns import ColumnCorpus, read_columns, read_conll, read_jnlpba, write_columns
from ._corpus import (
    FORMATS,
    corpus_to_documents,
    detect_format,
    read_documents,
    write_documents,
)
from ._errors import CorpusFormatError
from ._jsonl import read_jsonl, write_jsonl
from ._models import TRUSTED_TYPES, ModelFileError, load_model, model_metadata, save_model
from ._pubtator import read_pubtator, write_pubtator
from ._tokenized import read_tokenized
from ._warnings import CorpusWarning
from ._word_classes import read_word_classes, write_word_classes

__all__ = [
    "BratDocument",
    "ColumnCorpus",
    "CorpusFormatError",
    "CorpusWarning",
    "Entity",
    "FORMATS",
    "ModelFileError",
    "TRUSTED_TYPES",
    "corpus_to_documents",
    "detect_format",
    "entities_from_spans",
    "load_model",
    "model_metadata",
    "read_bioc",
    "read_brat",
    "read_brat_dir",
    "read_columns",
    "read_conll",
    "read_documents",
    "read_jnlpba",
    "read_jsonl",
    "read_pubtator",
    "read_tokenized",
    "read_word_classes",
    "save_model",
    "write_bioc",
    "write_brat",
    "write_columns",
    "write_documents",
    "write_jsonl",
    "write_pubtator",
    "write_word_classes",
]
