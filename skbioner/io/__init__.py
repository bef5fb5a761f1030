"""Reading and writing corpus files.

* Column files -- JNLPBA / GENIA IOB2 (``token<TAB>label``, ``###MEDLINE:``
  document lines) and CoNLL style (space-separated columns, ``-DOCSTART-``
  lines): :func:`read_columns`, :func:`read_jnlpba`, :func:`read_conll`,
  :func:`write_columns`.  Files are written back byte for byte, optionally
  with new labels.
* Pre-tokenised text, one sentence per line (unlabeled corpora):
  :func:`read_tokenized`.
* brat standoff (``<id>.txt`` + ``<id>.ann``): :func:`read_brat`,
  :func:`read_brat_dir`, :func:`write_brat`, :func:`entities_from_spans`.
* Model files: :func:`save_model` / :func:`load_model` -- the safe ``.skops``
  format, which loads without running code, and joblib pickles on request.

Loading a pickle (``joblib.load``, ``pickle.load``) runs whatever code the
file contains, so a model file from someone else is as dangerous as their
script.  :func:`load_model` reads the skops format, checks every type a file
names before building anything (scikit-learn estimators, numpy and Python
basics, skbioner's own classes and :data:`TRUSTED_TYPES`), and refuses
pickles unless ``allow_pickle=True``.  Outputs are written atomically: a
failed or interrupted write leaves an existing file as it was.

Every malformed input raises :class:`CorpusFormatError`, naming the file and
the line.
"""

from ._brat import BratDocument, Entity, entities_from_spans, read_brat, read_brat_dir, write_brat
from ._columns import ColumnCorpus, read_columns, read_conll, read_jnlpba, write_columns
from ._errors import CorpusFormatError
from ._models import TRUSTED_TYPES, ModelFileError, load_model, save_model
from ._tokenized import read_tokenized

__all__ = [
    "BratDocument",
    "ColumnCorpus",
    "CorpusFormatError",
    "Entity",
    "ModelFileError",
    "TRUSTED_TYPES",
    "entities_from_spans",
    "load_model",
    "read_brat",
    "read_brat_dir",
    "read_columns",
    "read_conll",
    "read_tokenized",
    "read_jnlpba",
    "save_model",
    "write_brat",
    "write_columns",
]
