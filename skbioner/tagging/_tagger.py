"""Tag raw-text documents with a fitted pipeline: tokenize, predict, map back to offsets."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import os
import stat
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .._utils import gc_paused, signal_cause
from ..base import split_pipeline
from ..io import Entity
from ..schemes import labels_to_spans, spans_to_labels
from ._documents import DocumentError

__all__ = ["TaggedDocument", "TaggedEntity", "tag_documents", "entities_from_labels",
           "gives_confidences"]


@dataclass(frozen=True)
class TaggedEntity(Entity):
    """A predicted entity: an :class:`~skbioner.io.Entity` with a confidence.

    Parameters
    ----------
    id, type, start, end, text, fragments
        As in :class:`~skbioner.io.Entity`: ``text == document_text[start:end]``
        (character offsets, end excluded).
    confidence : float or None, default=None
        The probability, under the model, that this exact entity (span and
        type) is in the sentence (the ``predict_entities`` of chain models
        and of :class:`~skbioner.models.CascadedNER`); None for a model that
        gives no probabilities (``CRFsuiteTagger``, ``MajorityTagger``, a
        post-processed tagger) or when confidences were not asked for.
    model : str or None, default=None
        The model that found it, when several tag together
        (:func:`tag_documents` with a list of models).
    """

    confidence: float | None = None
    model: str | None = None


@dataclass(frozen=True)
class TaggedDocument:
    """A document with its tokens, predicted labels and entities.

    Parameters
    ----------
    id, text, source : str
        As in :class:`Document`.
    sentences : list of Sentence
        The document's sentences (tokens, with the document id).
    offsets : list of ndarray of shape (n_tokens, 2)
        Character offsets of the tokens.
    labels : list of list of str
        Predicted IOB2 labels (of the entities kept by ``min_confidence``).
    entities : list of TaggedEntity
        The predicted entities with character offsets
        (``text[e.start:e.end] == e.text``) and confidences, numbered
        ``T1``... in order.
    """

    id: str
    text: str
    source: str
    sentences: list
    offsets: list
    labels: list
    entities: list

    @property
    def n_tokens(self) -> int:
        return sum(len(s) for s in self.sentences)


def entities_from_labels(text, offsets, labels):
    """Entities (character offsets into ``text``) of per-sentence IOB2 labels.

    Parameters
    ----------
    text : str
    offsets : list of ndarray of shape (n_tokens, 2)
        Token offsets of each sentence.
    labels : list of list of str
        IOB2 labels of each sentence (ill-formed sequences are read with the
        repair policy of :func:`skbioner.schemes.labels_to_spans`).

    Returns
    -------
    list of TaggedEntity
        Numbered ``T1``, ``T2``... in text order, without confidence.
    """
    spans = [[(t, i, j, None) for t, i, j in labels_to_spans(labs)] for labs in labels]
    return _entities_from_spans(text, offsets, spans)


def _entities_from_spans(text, offsets, spans):
    """Entities of per-sentence token spans ``(type, start, end, confidence)``."""
    out = []
    for off, sent in zip(offsets, spans, strict=True):
        for typ, i, j, p in sent:
            start, end = int(off[i, 0]), int(off[j - 1, 1])
            out.append((start, end, typ, p))
    out.sort(key=lambda e: e[:3])
    return [TaggedEntity(f"T{n}", typ, s, e, text[s:e], confidence=p)
            for n, (s, e, typ, p) in enumerate(out, 1)]


def merge_tagged(results, names):
    """One document's results from several models, merged (:func:`tag_documents`).

    Every model's entities compete: the most confident is kept, then the next
    that overlaps no kept one, and so on (an entity without a confidence
    ranks below any with one; a tie goes to the model listed first); each
    kept entity names its model.  The sentences and offsets are the first
    model's, and its labels are those of the kept entities that cover whole
    tokens of it (a model of re-cut words may end an entity inside one:
    that entity is in ``entities`` only).  A document that one model fails
    on is that model's error.

    Parameters
    ----------
    results : list of TaggedDocument or DocumentError
        One document as each model tagged it, in the order of ``names``.
    names : sequence of str
        The models' names.

    Returns
    -------
    TaggedDocument or DocumentError
    """
    for res in results:
        if isinstance(res, DocumentError):
            return res
    ranked = sorted(((e.confidence is None, -(e.confidence or 0.0), k, e)
                     for k, res in enumerate(results) for e in res.entities),
                    key=lambda r: r[:3])
    kept = []
    for _, _, k, e in ranked:
        if all(e.end <= o.start or o.end <= e.start for o in kept):
            kept.append(dataclasses.replace(e, model=names[k]))
    kept.sort(key=lambda e: (e.start, e.end, e.type))
    first = results[0]
    labels = []
    for off in first.offsets:
        labs = ["O"] * len(off)
        for e in kept:
            inside = np.flatnonzero((off[:, 0] >= e.start) & (off[:, 1] <= e.end))
            if inside.size:
                labs[inside[0]] = f"B-{e.type}"
                for i in inside[1:]:
                    labs[i] = f"I-{e.type}"
        labels.append(labs)
    entities = [dataclasses.replace(e, id=f"T{n}") for n, e in enumerate(kept, 1)]
    return dataclasses.replace(first, labels=labels, entities=entities)


#: Documents per predict call by default: featurizing and decoding have a fixed cost per
#: call and per distinct word type in it, so larger batches are cheaper per token (on the
#: JNLPBA test abstracts, one core: 128 documents ~1.2x the tokens/s of 32; 256 no better).
BATCH_SIZE = 128
#: ... or fewer documents holding this many characters (long texts, standard input's pieces).
BATCH_CHARS = 1 << 20


def gives_confidences(model) -> bool:
    """Whether ``model`` (or the last step of a pipeline) gives entity probabilities.

    Parameters
    ----------
    model : estimator or Pipeline

    Returns
    -------
    bool
        True when it has ``predict_entities`` (:class:`~skbioner.models.OnlinePACRF`,
        :class:`~skbioner.models.CascadedNER` and every chain model).
    """
    if isinstance(model, Models):
        return all(map(gives_confidences, model.models))
    return hasattr(split_pipeline(model)[1], "predict_entities")


def _predicted_spans(model, sentences, confidence=True, min_confidence=None):
    """Per sentence, the predicted entities as ``(type, start, end, confidence)``.

    Token offsets (end excluded).  With ``confidence`` and a model that gives
    probabilities (:func:`gives_confidences`) they come from its
    ``predict_entities``, otherwise from ``predict`` with confidence None.
    ``min_confidence`` drops the entities below it.
    """
    head, final = split_pipeline(model)
    if min_confidence is not None and not (confidence and hasattr(final, "predict_entities")):
        raise ValueError(
            f"min_confidence needs entity confidences, which "
            f"{type(final).__name__} does not give (no predict_entities)"
            if confidence else "min_confidence needs confidence=True")
    if confidence and hasattr(final, "predict_entities"):
        spans = final.predict_entities(head.transform(sentences) if head is not None
                                       else sentences)
        if min_confidence is not None:
            spans = [[sp for sp in sent if sp[3] >= min_confidence] for sent in spans]
        return spans
    return [[(t, i, j, None) for t, i, j in labels_to_spans(labs)]
            for labs in model.predict(sentences)]


@functools.lru_cache(maxsize=2)
def _load(ref, mtime, allow_pickle):
    """A model file (by path and mtime) or a :class:`ModelBytes` (by digest), loaded once."""
    if isinstance(ref, ModelBytes):
        from ..io._models import load_model_bytes
        from ._bundled import ready_to_tag

        return ready_to_tag(load_model_bytes(ref.data, ref.name, allow_pickle=allow_pickle),
                            ref.name)
    from ._bundled import load_model

    return load_model(ref, allow_pickle=allow_pickle)


@dataclass(frozen=True)
class ModelBytes:
    """The content of a model file that cannot be opened twice (a pipe), for worker processes.

    Parameters
    ----------
    name : str
        The path it was read from (for messages).
    data : bytes
        The file's content.
    digest : str
        Its SHA-256 (each worker loads it once).
    """

    name: str
    data: bytes = field(repr=False, compare=False)  # a cache key: name and digest
    digest: str


def model_reference(path):
    """What worker processes load a model file from: its path, or its content read once.

    A regular file is opened by each worker; a pipe (``/dev/stdin``,
    ``<(...)``) cannot be read again, so it is read here, once.
    """
    if isinstance(path, Models):
        return Models(path.names, tuple(map(model_reference, path.models)))
    if path is None or not isinstance(path, str | os.PathLike):
        return path
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return os.fspath(path)  # the loader says what is wrong
    if regular:
        return os.fspath(path)
    from ..io._models import _read_model_bytes

    name = os.fsdecode(os.fspath(path))
    data = _read_model_bytes(path, name)  # refuses a directory or a device
    return ModelBytes(name, data, hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class Models:
    """Several models that tag together, by name (:func:`tag_documents`, :func:`merge_tagged`).

    Parameters
    ----------
    names : tuple of str
    models : tuple
        Fitted pipelines, paths or :class:`ModelBytes`, in the order given.
    """

    names: tuple
    models: tuple

    @classmethod
    def of(cls, models):
        """From a dict ``{name: model}`` or a list (a path or a bundled model named by
        itself -- its file stem --, a fitted model by its position: ``model1``...)."""
        if isinstance(models, dict):
            names, models = tuple(map(str, models)), tuple(models.values())
        else:
            models = tuple(models)
            names = tuple(os.path.splitext(os.path.basename(os.fspath(m)))[0]
                          if isinstance(m, str | os.PathLike) else f"model{k}"
                          for k, m in enumerate(models, 1))
        if not models:
            raise ValueError("no model given")
        if len(set(names)) < len(names):
            raise ValueError(f"two models have the same name ({', '.join(names)})")
        return cls(names, models)


def _model_of(ref, allow_pickle=False):
    """A model object, or a path loaded once per worker process (cached by mtime).

    None stands for the bundled model; a :class:`ModelBytes` is loaded once
    per process (cached by its digest).
    """
    if isinstance(ref, Models):
        return Models(ref.names, tuple(_model_of(r, allow_pickle) for r in ref.models))
    if ref is None or isinstance(ref, str | os.PathLike):
        from ._bundled import bundled_model_path

        ref = bundled_model_path(ref) or ref  # a bundled model's name: its file
    if isinstance(ref, ModelBytes):
        return _load(ref, None, bool(allow_pickle))
    if isinstance(ref, str | os.PathLike):
        return _load(os.fspath(ref), os.stat(ref).st_mtime_ns, allow_pickle)
    return ref


def worker_count(n_jobs):
    """The worker processes to start for ``n_jobs``: capped at the cores of this machine.

    ``None`` and 1: none (tag in this process); ``-1``: every core
    (``-2`` all but one, as joblib counts); a positive number: at most the
    number of cores -- unless a joblib backend of another kind (``dask``)
    is active, whose workers are elsewhere.
    """
    from joblib import cpu_count, effective_n_jobs
    from joblib.parallel import get_active_backend

    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int | np.integer) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a nonzero integer or None, got {n_jobs!r}")
    if n_jobs < 0:
        return max(1, effective_n_jobs(int(n_jobs)))
    backend = type(get_active_backend()[0]).__name__
    if backend in ("LokyBackend", "MultiprocessingBackend", "ThreadingBackend",
                   "SequentialBackend"):
        return min(int(n_jobs), cpu_count())
    return int(n_jobs)


def _tag_batch(model_ref, docs, tokenizer, max_token_length, inner_threads=None,
               allow_pickle=False, options=(True, None)):
    """Tag one batch of documents (runs in a worker with ``n_jobs > 1``)."""
    if inner_threads is None:
        return _tag_docs(_model_of(model_ref, allow_pickle), docs, tokenizer, max_token_length,
                         options)
    import multiprocessing
    import signal
    import threading

    import numba

    # In a joblib (loky) worker process, SIGINT and SIGTERM are left to the parent.  Ctrl-C
    # (and a SIGTERM sent to the process group) reaches every process of the group; the
    # parent stops the batch and shuts its workers down (loky kills them), whereas a worker
    # stopped mid-task would print a traceback, and workers dying while the parent shuts
    # the pool down can stall the shutdown.
    if (multiprocessing.current_process().name.startswith("LokyProcess")
            and threading.current_thread() is threading.main_thread()):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # compiled decoding is multi-threaded: fewer threads per worker process avoid
    # oversubscribing the cores the workers share; restored for later joblib tasks
    before = numba.get_num_threads()
    numba.set_num_threads(min(inner_threads, numba.config.NUMBA_NUM_THREADS))
    try:
        return _tag_batch(model_ref, docs, tokenizer, max_token_length, None, allow_pickle,
                          options)
    finally:
        numba.set_num_threads(before)


# a batch builds a few small objects per token, none of them cyclic garbage: the
# collector's scans of the model's and the batch's objects would cost a third of
# the tagging time
@gc_paused()
def _tag_docs(model, docs, tokenizer, max_token_length, options=(True, None)):
    if isinstance(model, Models):
        docs = list(docs)
        each = [_tag_docs(m, docs, tokenizer, max_token_length, options) for m in model.models]
        return [merge_tagged(res, model.names) for res in zip(*each)]
    results, sentences = [], []
    prepared = []
    for doc in docs:
        if isinstance(doc, DocumentError):
            prepared.append(doc)
            continue
        try:
            sents, offs = tokenizer.tokenize_text(doc.text)
            sents = [s.with_doc_id(str(doc.id)) for s in sents]
        except Exception as exc:  # a tokenizer failure concerns this document only
            if signal_cause(exc) is not None:  # Ctrl-C or SIGTERM inside a compiled call
                raise
            why = "out of memory" if isinstance(exc, MemoryError) else str(exc) or repr(exc)
            prepared.append(DocumentError(doc.id, doc.source, f"cannot tokenize: {why}"))
            continue
        flat = np.concatenate(offs) if offs else np.zeros((0, 2), dtype=np.int64)
        long = np.flatnonzero(flat[:, 1] - flat[:, 0] > max_token_length)
        if long.size:
            a, b = (int(v) for v in flat[long[0]])
            prepared.append(DocumentError(
                doc.id, doc.source,
                f"a {b - a:,}-character token at offset {a} (text without spaces?) is longer "
                f"than max_token_length={max_token_length:,}; not tagged"))
            continue
        if not sents:
            prepared.append(DocumentError(doc.id, doc.source, "no token in the document"))
            continue
        prepared.append((doc, sents, offs))
        sentences.extend(sents)
    confidence, min_confidence = options
    if sentences and hasattr(model, "split_tokens"):
        # a RecutTagger: its own tagger tags the pieces of the tokens,
        # so an entity may end inside a word (Tax-induced)
        sentences, pieces = model.split_tokens(
            sentences, [off for item in prepared if not isinstance(item, DocumentError)
                        for off in item[2]])
        model, at = model.tagger_, 0
        for k, item in enumerate(prepared):
            if not isinstance(item, DocumentError):
                n = len(item[1])
                prepared[k] = (item[0], sentences[at:at + n], pieces[at:at + n])
                at += n
    local = _sentence_local(model)
    spans = []
    for a, b in _calls([item[1] for item in prepared if not isinstance(item, DocumentError)],
                       local):
        spans.extend(_predicted_spans(model, sentences[a:b], confidence, min_confidence))
    pos = 0
    for item in prepared:
        if isinstance(item, DocumentError):
            results.append(item)
            continue
        doc, sents, offs = item
        sp = spans[pos:pos + len(sents)]
        pos += len(sents)
        labs = [spans_to_labels([t[:3] for t in s], len(sent), "IOB2") if s else ["O"] * len(sent)
                for s, sent in zip(sp, sents)]
        results.append(TaggedDocument(doc.id, doc.text, doc.source, sents, offs, labs,
                                      _entities_from_spans(doc.text, offs, sp)))
    return results


#: Tokens per predict call at most: a long document is tagged a piece at a time (sentence
#: by sentence, for a model that reads sentences alone), so the features, scores and
#: probabilities of one call -- ~150 bytes per input byte -- stay bounded.  A batch of 128
#: abstracts (~32,000 tokens) is still one call.
MAX_TOKENS_PER_CALL = 50_000

# what a model may be made of to tag each sentence on its own: a document can then be
# tagged in pieces with the same result (post-processing and two passes read documents)
_SENTENCE_LOCAL = {
    "Pipeline", "TokenFeaturizer", "POSTagger", "HMMStateClusterer", "NumericNormalizer",
    "OnlinePACRF", "CascadedNER", "CRFsuiteTagger", "MajorityTagger", "HMMSVMTagger",
    "PairwiseSVMTagger",
}


def _sentence_local(model):
    """Whether every step of ``model`` tags (or annotates) each sentence on its own."""
    from sklearn.pipeline import Pipeline

    steps = [s for _, s in model.steps] if isinstance(model, Pipeline) else [model]
    return all(
        s is None or s == "passthrough" or (type(s).__module__.startswith("skbioner.")
                                            and type(s).__name__ in _SENTENCE_LOCAL)
        for s in steps)


def _calls(documents, local, limit=None):
    """``[(start, stop), ...]``: the sentences (flat, in order) of each predict call.

    ``documents`` holds each document's sentences.  Calls gather documents up
    to ``limit`` tokens; with ``local`` a longer document is cut between
    sentences, otherwise it is one call.
    """
    limit = MAX_TOKENS_PER_CALL if limit is None else limit
    out, start, pos, tokens = [], 0, 0, 0
    for sents in documents:
        for group in ([[s] for s in sents] if local else [sents]):
            n = sum(len(s) for s in group)
            if tokens and tokens + n > limit:
                out.append((start, pos))
                start, tokens = pos, 0
            tokens += n
            pos += len(group)
    if pos > start:
        out.append((start, pos))
    return out


def _check_min_confidence(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"min_confidence must be a probability in [0, 1], got {value!r}")
    return float(value)


#: Fewer documents than this are tagged in this process whatever ``n_jobs`` says: a worker
#: process starts, imports and loads the model (27-40 s measured here), and below this that
#: costs more than the second core gains.  Where those seconds go
#: (``benchmarks/archive/tag_workers.py``, timestamps inside the workers): each worker spends about
#: 3.7 CPU seconds before it tags at full speed -- 2.0 importing what unpickling its first
#: task needs (numpy, scikit-learn, numba, skbioner), 1.3 loading the model, 0.4 more in
#: its first batch (kernels loaded from numba's cache, first use) -- as much as a fresh
#: ``skbioner tag`` process; at load 7-15 on the 2 shared cores that is 17-25 s of wall
#: time.  When numba's cache is cold (the first run after a kernel's source changed), each
#: worker also compiles its ~20 kernels itself: about 5 CPU seconds more per worker.
#: ``benchmarks/archive/tag_jobs.py`` on the 404 JNLPBA test
#: abstracts (2 shared cores): 2 jobs took 2.1x as long as 1 at load ~11 (break-even ~5,500
#: documents) and 4.1x at load ~2.5 (workers +27 s; at benchmarks/bundled_model.py's 6 ms a
#: document, break-even ~8,700).
PARALLEL_MIN_DOCUMENTS = 10_000


def _worth_workers(documents, n_jobs, parallel_from):
    """``(documents, n_jobs)``: 1 job if the stream ends before ``parallel_from`` documents.

    Reads that many documents ahead (memory: a few batches' worth), and gives
    the stream back whole.
    """
    if not (isinstance(parallel_from, int) and not isinstance(parallel_from, bool)
            and parallel_from >= 0):
        raise ValueError(f"parallel_from must be a non-negative int, got {parallel_from!r}")
    if n_jobs == 1 or parallel_from == 0:
        return documents, n_jobs
    it, head, chars = iter(documents), [], 0
    for doc in it:  # as many characters as the documents of the break-even are worth too
        head.append(doc)
        chars += len(getattr(doc, "text", ""))
        if len(head) >= parallel_from or chars >= parallel_from * 1_500:
            return itertools.chain(head, it), n_jobs
    return head, 1


def _batches(docs: Iterable, size: int) -> Iterator[list]:
    """Batches of ``size`` documents, or fewer holding :data:`BATCH_CHARS` characters."""
    batch, chars = [], 0
    for doc in docs:
        batch.append(doc)
        chars += len(getattr(doc, "text", ""))
        if len(batch) >= size or chars >= BATCH_CHARS:
            yield batch
            batch, chars = [], 0
    if batch:
        yield batch


def tag_documents(model, documents, *, tokenizer=None, batch_size=BATCH_SIZE, n_jobs=None,
                  max_token_length=1000, allow_pickle=False, confidence=True,
                  min_confidence=None, parallel_from=PARALLEL_MIN_DOCUMENTS):
    """Tag a stream of raw-text documents; yield results in input order.

    Parameters
    ----------
    model : estimator, path, None, list or dict
        A fitted pipeline mapping sentences to IOB2 label lists (what
        ``skbioner train`` saves), or the path of its file (or a bundled
        model's name), loaded with :func:`skbioner.load_model`; None: the
        bundled JNLPBA model.  With ``n_jobs`` other than 1, pass a path (or
        None): each worker process loads it once.  Several (a list, or a
        dict by name) tag every document and their entities are merged:
        overlaps resolved by confidence, each entity naming its model
        (:func:`merge_tagged`).
    documents : iterable of Document or DocumentError
        E.g. :func:`iter_documents`; consumed lazily, so memory stays
        bounded by a few batches whatever the corpus size.
    tokenizer : BioTokenizer, optional
        Default :class:`skbioner.text.BioTokenizer`.
    batch_size : int, default=128
        Documents per ``predict`` call (and per parallel task).
    n_jobs : int or None, default=None
        Worker processes (joblib); None or 1 tags in this process, -1 uses
        every core; more than the machine's cores is capped at their number
        (see :func:`worker_count`).  A stream of fewer than ``parallel_from``
        documents is tagged in this process.  Any joblib backend applies (``with
        joblib.parallel_config("dask"):``).
    max_token_length : int, default=1000
        A document with a longer token (e.g. a 1 MB line without spaces) is
        reported as a :class:`DocumentError` instead of being tagged.
    allow_pickle : bool, default=False
        Let a model path be a joblib pickle (loading a pickle runs any code
        it contains; see :func:`skbioner.io.load_model`).
    confidence : bool, default=True
        Give every entity its probability (:attr:`TaggedEntity.confidence`)
        when the model has ``predict_entities`` (:func:`gives_confidences`);
        False skips the forward-backward pass this takes (faster:
        ``benchmarks/bundled_model.py`` measures by how much) and leaves
        confidences None.
    min_confidence : float or None, default=None
        Keep only the entities whose confidence is at least this (in
        ``entities`` and ``labels``): higher means more precision, less
        recall (``docs/lab/first-hour-measurements.md`` measures the trade-off).  Needs a
        model that gives confidences (ValueError otherwise).
    parallel_from : int, default=PARALLEL_MIN_DOCUMENTS
        With ``n_jobs`` other than 1, the documents a stream must have for
        worker processes to start (the first ``parallel_from`` are read
        ahead); a shorter one is tagged in this process, since starting
        workers (importing, loading the model) would cost more than they
        save.  0: always start them.

    Yields
    ------
    TaggedDocument or DocumentError
    """
    from joblib import Parallel, cpu_count, delayed

    from ..text import BioTokenizer

    if tokenizer is None:
        tokenizer = BioTokenizer()
    if not (isinstance(batch_size, int) and batch_size >= 1):
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    options = (bool(confidence), _check_min_confidence(min_confidence))
    n_jobs = worker_count(n_jobs)
    if isinstance(model, list | tuple | dict):
        model = Models.of(model)
    refs = model.models if isinstance(model, Models) else (model,)
    if n_jobs != 1 and not all(m is None or isinstance(m, str | os.PathLike | ModelBytes)
                               for m in refs):
        raise TypeError("with n_jobs > 1 pass the model as the path of its file, so each "
                        "worker loads it once")
    documents, n_jobs = _worth_workers(documents, n_jobs, parallel_from)
    batches = _batches(documents, batch_size)
    if n_jobs == 1:
        model = _model_of(model_reference(model), allow_pickle)
        for batch in batches:
            yield from _tag_batch(model, batch, tokenizer, max_token_length, options=options)
        return
    ref = model_reference(model)
    parallel = Parallel(n_jobs=n_jobs, return_as="generator", pre_dispatch="2*n_jobs")
    inner = max(1, cpu_count() // n_jobs)
    tasks = parallel(delayed(_tag_batch)(ref, batch, tokenizer, max_token_length,
                                         inner, allow_pickle, options) for batch in batches)
    try:
        for results in tasks:
            yield from results
    finally:
        # stopped early (Ctrl-C, an error, the consumer let go): cancel the pending
        # tasks without joblib's warning about results computed but not used
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module="joblib")
            tasks.close()
