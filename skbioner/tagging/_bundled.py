"""The bundled JNLPBA model, and loading a model to tag with (``skbioner.load_model``)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from ..io._atomic import same_path
from ..models._base import densified

__all__ = ["BUNDLED_MODEL", "BUNDLED_MODELS", "bundled_model_path", "load_model"]

_DATA = Path(__file__).resolve().parent / "data"
#: The model shipped with the package: the ``online-crf`` preset trained on the full JNLPBA
#: 2004 training set, in the safe ``.skops`` format (``skbioner/tagging/data/README.md``:
#: how it was made, its licence and its scores).
BUNDLED_MODEL = _DATA / "jnlpba.skops"
#: The models shipped with the package, by name (``skbioner.load_model("bc5cdr")``,
#: ``skbioner tag -m bc5cdr``): ``"jnlpba"`` (protein, DNA, RNA, cell line, cell type; the
#: default), ``"bc5cdr"`` (chemicals and diseases, BioCreative V CDR) and ``"bionlp13cg"``
#: (16 cancer-genetics types, BioNLP 2013 CG).
BUNDLED_MODELS = {"jnlpba": BUNDLED_MODEL, "bc5cdr": _DATA / "bc5cdr.skops",
                  "bionlp13cg": _DATA / "bionlp13cg.skops"}
_MAKE = {"jnlpba": "python scripts/make_bundled_model.py --data ../shared/data/jnlpba",
         **{name: f"python scripts/make_corpus_model.py --corpus {name} --data ../shared/data"
            for name in ("bc5cdr", "bionlp13cg")}}


def bundled_model_path(model=None):
    """The file of a bundled model named ``model``, or None if ``model`` names none.

    Parameters
    ----------
    model : str, path-like or None
        None (the default model, ``"jnlpba"``), a name of
        :data:`BUNDLED_MODELS`, or a path; a name is taken as a name only
        when no file of that name exists.

    Returns
    -------
    pathlib.Path or None
    """
    if model is None:
        return BUNDLED_MODEL
    if isinstance(model, str) and model in BUNDLED_MODELS and not os.path.exists(model):
        return BUNDLED_MODELS[model]
    for path in BUNDLED_MODELS.values():
        if same_path(model, path):
            return path
    return None


def load_model(path=None, *, allow_pickle=False, trusted=()):
    """Load a model to tag with: a bundled model (by name), or a model file.

    ``skbioner.load_model()`` returns the model bundled with the package, a
    pipeline (featurizer and :class:`~skbioner.models.OnlinePACRF`) trained
    on the full JNLPBA 2004 training set that tags ``protein``, ``DNA``,
    ``RNA``, ``cell_line`` and ``cell_type`` mentions in biomedical text;
    ``skbioner.load_model("bc5cdr")`` the second bundled model, which tags
    ``Chemical`` and ``Disease`` mentions (trained on BioCreative V CDR;
    ``skbioner/tagging/data/README.md``);
    ``skbioner.load_model(path)`` loads a file as
    :func:`skbioner.io.load_model` does (safely: the ``.skops`` format runs
    no code from the file).  Chain weights stored sparse to save space
    (:meth:`~skbioner.models.OnlinePACRF.sparsify`) are made dense again, so
    the model tags at full speed.

    Parameters
    ----------
    path : str, path-like or None, default=None
        None: the bundled JNLPBA model (:data:`skbioner.tagging.BUNDLED_MODEL`);
        a name of :data:`BUNDLED_MODELS` (``"jnlpba"``, ``"bc5cdr"``): that
        bundled model (unless a file of that name exists); otherwise a path.
    allow_pickle : bool, default=False
        See :func:`skbioner.io.load_model`.
    trusted : iterable of str, default=()
        See :func:`skbioner.io.load_model`.

    Returns
    -------
    object
        The fitted model (a scikit-learn ``Pipeline`` for models saved by
        ``skbioner train``): ``predict(sentences)`` gives IOB2 labels, and
        :func:`skbioner.tag_text` tags raw text with it.

    Raises
    ------
    FileNotFoundError
        If the bundled model is missing (a source checkout without it:
        ``python scripts/make_bundled_model.py`` re-creates it) or ``path``
        does not exist.
    skbioner.io.ModelFileError
        See :func:`skbioner.io.load_model`; also for a file whose object has
        no ``predict`` method.

    Examples
    --------
    >>> import skbioner
    >>> model = skbioner.load_model()
    >>> model.predict([["IL-2", "gene", "expression", "in", "T", "cells"]])
    [['B-protein', 'O', 'O', 'O', 'B-cell_type', 'I-cell_type']]
    """
    from ..io import load_model as _load  # the one loader of model files

    bundled = bundled_model_path(path)
    if bundled is not None:
        if not bundled.is_file():
            name = next(k for k, v in BUNDLED_MODELS.items() if v == bundled)
            raise FileNotFoundError(
                f"the bundled model {name!r} is missing ({bundled}); re-create it with "
                f"{_MAKE[name]}")
        from sklearn.exceptions import InconsistentVersionWarning

        with warnings.catch_warnings():
            # written by scripts/make_bundled_model.py with the scikit-learn of its day;
            # tests/tagging/test_bundled.py checks that it tags as documented
            warnings.simplefilter("ignore", InconsistentVersionWarning)
            model = _load(bundled)
        return ready_to_tag(model, bundled)
    return ready_to_tag(_load(path, allow_pickle=allow_pickle, trusted=trusted), path)


def ready_to_tag(model, name):
    """``model``, checked to have ``predict``, its chain weights made dense (see ``load_model``)."""
    if not hasattr(model, "predict"):
        from ..io import ModelFileError

        raise ModelFileError(f"{os.fsdecode(os.fspath(name))}: not a model to tag with (a "
                             f"{type(model).__name__}, which has no predict method)")
    return densified(model)


