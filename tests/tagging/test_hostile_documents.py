"""Issue 22 in batch tagging: bad documents are reported and skipped, long ones tagged in
pieces, the number of workers capped, a model from a pipe read once."""

import json
import os
import threading
from pathlib import Path

import joblib
import pytest
from sklearn.pipeline import make_pipeline

from skbioner.features import TokenFeaturizer
from skbioner.io import save_model
from skbioner.models import OnlinePACRF
from skbioner.pipelines import add_knowledge
from skbioner.tagging import Document, DocumentError, _tagger, iter_documents, tag_documents
from tests.models.toy import toy_sentences

TEXT = "The IL-2 gene in T cells . The p53 gene in HeLa cells ."


@pytest.fixture(scope="module")
def model():
    X, y = toy_sentences(40)
    return make_pipeline(TokenFeaturizer("chan"), OnlinePACRF(max_iter=5, random_state=0)).fit(
        X, y)


def test_a_deep_record_is_one_bad_document(tmp_path):
    # item 5: RecursionError stopped the batch; the records around it were lost
    path = tmp_path / "d.jsonl"
    path.write_text("\n".join([json.dumps({"id": "a", "text": TEXT}),
                               '{"id": "deep", "text": ' + "[" * 50_000 + "]" * 50_000 + "}",
                               json.dumps({"id": "b", "text": TEXT})]) + "\n")
    docs = list(iter_documents(path))
    assert [d.id for d in docs] == ["a", None, "b"]
    assert isinstance(docs[1], DocumentError) and docs[1].source == f"{path}:2"
    assert "nested more than 100 levels" in docs[1].message


def test_an_unreadable_file_is_one_bad_document(tmp_path, monkeypatch):
    # item 10: PermissionError aborted the batch (fault injection: root reads any file)
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.txt").write_text(TEXT)
    (tmp_path / "d.jsonl").write_text(json.dumps({"id": "d", "text": TEXT}) + "\n")
    real_read, real_open = Path.read_bytes, open

    def read_bytes(self):
        if self.name == "b.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)

    def opening(file, *args, **kwargs):
        if str(file).endswith("d.jsonl"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr("builtins.open", opening)
    docs = list(iter_documents(tmp_path))
    assert [type(d).__name__ for d in docs] == ["Document", "DocumentError", "Document",
                                                "DocumentError"]
    assert all(d.message == "cannot be read: Permission denied" for d in docs[1::2])


def test_control_characters_in_a_text_are_refused(tmp_path):
    # item 9: a NUL was glued to a token and written to IOB2 that predict then refused
    (tmp_path / "a.txt").write_text("The IL-2\x00 gene .")
    (tmp_path / "b.txt").write_text("A form\x0cfeed and\x1cseparators are spaces .")
    a, b = iter_documents(tmp_path)
    assert isinstance(a, DocumentError) and "control character '\\x00' at character 8" in str(a)
    assert isinstance(b, Document)


def test_long_documents_are_tagged_in_pieces_with_the_same_result(model, monkeypatch):
    # item 6: a 50 MB document took 165 bytes of memory per input byte in one predict call
    text = " ".join([TEXT] * 400)  # 4,800 tokens
    docs = [Document("long", text, "x"), Document("short", TEXT, "y")]
    whole = list(tag_documents(model, docs))
    calls = []
    real = _tagger._predicted_spans

    def counting(m, sentences, *args):
        calls.append(sum(map(len, sentences)))
        return real(m, sentences, *args)

    monkeypatch.setattr(_tagger, "MAX_TOKENS_PER_CALL", 500)
    monkeypatch.setattr(_tagger, "_predicted_spans", counting)
    pieces = list(tag_documents(model, docs))
    assert len(calls) >= 10 and max(calls) <= 500
    assert [r.entities for r in pieces] == [r.entities for r in whole]
    assert [r.labels for r in pieces] == [r.labels for r in whole]


def test_models_that_read_documents_are_not_cut(model):
    X, y = toy_sentences(40)
    knowing = add_knowledge(make_pipeline(TokenFeaturizer("chan"), OnlinePACRF(max_iter=3)),
                            alias=True).fit(X, y)
    assert _tagger._sentence_local(model) and not _tagger._sentence_local(knowing)
    docs = [[["a"] * 3] * 4, [["b"] * 3] * 2]
    assert _tagger._calls(docs, local=True, limit=7) == [(0, 2), (2, 4), (4, 6)]
    assert _tagger._calls(docs, local=False, limit=7) == [(0, 4), (4, 6)]
    assert _tagger._calls(docs, local=False, limit=100) == [(0, 6)]


def test_worker_count_is_capped_at_the_cores():
    # item 6: --n-jobs 1000 started 1,000 worker processes
    cores = joblib.cpu_count()
    assert _tagger.worker_count(1000) == cores and _tagger.worker_count(-1) == cores
    assert _tagger.worker_count(None) == _tagger.worker_count(1) == 1
    with joblib.parallel_config(backend="threading"):
        assert _tagger.worker_count(1000) == cores
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            _tagger.worker_count(bad)


@pytest.mark.slow  # starts worker processes
def test_a_model_from_a_pipe_is_read_once_for_the_workers(model, tmp_path):
    # item 7: -m /dev/stdin with --n-jobs 2 failed: each worker re-opened the path
    path = save_model(model, tmp_path / "m.skops")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(path.read_bytes()))
    writer.start()
    ref = _tagger.model_reference(fifo)
    writer.join(30)
    assert isinstance(ref, _tagger.ModelBytes) and ref.data == path.read_bytes()
    assert _tagger.model_reference(path) == str(path)
    docs = [Document(str(i), TEXT, "x") for i in range(4)]
    serial = list(tag_documents(model, docs))
    parallel = list(tag_documents(ref, docs, n_jobs=2, batch_size=2, parallel_from=0))
    assert [r.entities for r in parallel] == [r.entities for r in serial]


def test_a_short_stream_is_tagged_without_worker_processes(model, monkeypatch, tmp_path):
    # issue 27: --n-jobs 2 made tagging 404 abstracts 2.4x slower than one job: starting
    # the workers and loading the model in each cost more than the second core saved
    def no_workers(*args, **kwargs):
        raise AssertionError("worker processes started for a short stream")

    path = save_model(model, tmp_path / "m.skops")
    monkeypatch.setattr("joblib.Parallel", no_workers)
    docs = [Document(str(i), TEXT, "x") for i in range(5)]
    serial = list(tag_documents(model, docs))
    short = list(tag_documents(path, iter(docs), n_jobs=2, parallel_from=6))
    assert [r.entities for r in short] == [r.entities for r in serial] and serial[0].entities
    with pytest.raises(AssertionError, match="worker processes started"):
        list(tag_documents(path, iter(docs), n_jobs=2, parallel_from=5))
    with pytest.raises(ValueError, match="parallel_from"):
        list(tag_documents(path, docs, n_jobs=2, parallel_from=-1))
