"""Character-span scores: exact, left and right views; scoring files of any format."""

import json
import warnings

import pytest

from skbioner.io import BratDocument, Entity, write_brat, write_documents
from skbioner.metrics import (
    ScoringInputError,
    character_span_report,
    character_span_scores,
    entity_report,
)
from skbioner.metrics._files import ScoringInputWarning, evaluate_span_files


def test_three_views():
    gold = {"d1": [("protein", 0, 4), ("DNA", 10, 19), ("DNA", 30, 35)],
            "d2": [("cell_type", 0, 7)]}
    pred = {"d1": [("protein", 0, 4), ("DNA", 10, 15), ("DNA", 25, 35), ("RNA", 40, 44)],
            "d3": [("protein", 0, 1)]}
    r = character_span_report(gold, pred)
    assert (r.overall.n_gold, r.overall.n_pred) == (4, 5)
    assert (r.overall.exact.tp, r.overall.left.tp, r.overall.right.tp) == (1, 2, 2)
    assert r.per_class["DNA"].left.tp == 1 and r.per_class["DNA"].right.tp == 1
    assert r.per_class["RNA"].n_gold == 0 and r.per_class["cell_type"].n_pred == 0
    assert r.overall.exact.precision == 1 / 5 and r.overall.exact.recall == 1 / 4
    assert r.mode == "characters" and "FULLY CORRECT answer with class info: 1" in r.to_text()
    assert json.loads(r.to_json())["overall"]["left"]["tp"] == 2


def test_matching_is_one_to_one():
    # two predictions sharing a gold start match it once: recall cannot exceed 1
    r = character_span_report({"d": [("p", 0, 4)]}, {"d": [("p", 0, 4), ("p", 0, 9)]})
    assert r.overall.left.tp == 1 and r.overall.left.recall == 1.0
    assert r.overall.exact.tp == 1


def test_same_as_token_spans_when_offsets_are_token_offsets():
    # tokens of one character each: character spans equal token spans, so the
    # character scores must equal entity_report in spans mode
    y_true = [["B-p", "I-p", "O", "B-d", "O", "B-p"]]
    y_pred = [["B-p", "O", "O", "B-d", "I-d", "B-d"]]
    from skbioner.schemes import labels_to_spans

    gold = {"s": labels_to_spans(y_true[0])}
    pred = {"s": labels_to_spans(y_pred[0])}
    ours = character_span_report(gold, pred).to_dict()
    ref = entity_report(y_true, y_pred, mode="spans").to_dict()
    assert ours == ref


def test_character_span_scores_is_the_exact_view():
    gold = {"d1": [("protein", 0, 4), ("DNA", 10, 19)]}
    pred = {"d1": [("protein", 0, 4), ("DNA", 10, 15)]}
    s = character_span_scores(gold, pred)
    assert s["overall"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "tp": 1, "n_pred": 2,
                            "n_gold": 2}
    assert s["per_class"]["DNA"]["tp"] == 0


TEXT = "IL-2 gene expression in T cells.\n"


def _gold(tmp_path):
    gold = tmp_path / "gold"
    for doc_id in ("a", "b"):
        write_brat(gold, BratDocument(doc_id, TEXT, [Entity("T1", "DNA", 0, 9, "IL-2 gene"),
                                                     Entity("T2", "cell_type", 24, 31,
                                                            "T cells")]))
    return gold


def _jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_score_jsonl_without_text_against_brat(tmp_path):
    gold = _gold(tmp_path)
    pred = _jsonl(tmp_path / "pred.jsonl", [
        {"id": "a", "entities": [{"start": 0, "end": 4, "type": "DNA", "text": "IL-2"},
                                 {"start": 24, "end": 31, "type": "cell_type"}]},
        {"id": "b", "entities": [{"start": 0, "end": 9, "type": "DNA", "probability": 0.7}]},
    ])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = evaluate_span_files(gold, pred)
    assert (r.overall.n_gold, r.overall.n_pred) == (4, 3)
    assert (r.overall.exact.tp, r.overall.left.tp, r.overall.right.tp) == (2, 3, 2)


def test_warnings_name_documents(tmp_path):
    gold = _gold(tmp_path)
    pred = _jsonl(tmp_path / "pred.jsonl", [
        {"id": "a", "text": "Another text entirely", "entities": []},
        {"id": "zz", "entities": [{"start": 0, "end": 2, "type": "DNA"}]},
    ])
    with pytest.warns(ScoringInputWarning) as record:
        r = evaluate_span_files(gold, pred)
    messages = " | ".join(str(w.message) for w in record)
    assert "not in GOLD, not scored: 'zz'" in messages
    assert "no output for 1 GOLD document(s)" in messages and "'b'" in messages
    assert "text of 1 document(s) differs" in messages
    assert r.overall.n_pred == 0 and r.overall.n_gold == 4


def test_pubtator_and_bioc_gold(tmp_path):
    gold = _gold(tmp_path)
    from skbioner.io import read_documents

    docs = read_documents(gold)
    for fmt, name in (("pubtator", "g.pubtator"), ("bioc-xml", "g.xml"), ("bioc-json", "g.json")):
        write_documents(tmp_path / name, docs, fmt)
        r = evaluate_span_files(tmp_path / name, gold)
        assert r.overall.exact.f1 == 1.0 and r.overall.n_gold == 4


def test_unreadable_file_is_a_scoring_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(ScoringInputError, match="bad.jsonl:1"):
        evaluate_span_files(_gold(tmp_path), bad)
