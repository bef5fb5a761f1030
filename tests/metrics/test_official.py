"""The official-mode counts against a line-by-line reference and the scorer's quirks."""

import numpy as np
import pytest

from skbioner.metrics import entity_report, evaluate_files, read_label_blocks
from skbioner.metrics._files import ScoringInputError
from tests.conftest import data_path
from tests.metrics.official_reference import reference_counts

GOLD_LABELS = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA", "B-protein", "I-protein"]
# answers also contain ill-formed and odd tags the script must survive
ANSWER_LABELS = GOLD_LABELS + ["E-DNA", "S-RNA", "B", "I", "O-DNA", "X", "I-", ""]


def assert_same_as_reference(gold, answer):
    rep = entity_report(gold, answer, mode="official")
    ref, per = reference_counts(gold, answer)
    assert rep.overall.n_gold == ref.get("ref", 0)
    assert rep.overall.n_pred == ref.get("ans", 0)
    for m in ("exact", "left", "right"):
        assert rep.overall[m].tp == ref.get(m, 0), m
    assert rep.tagging["correct_tags"] == ref.get("correct_tags", 0)
    assert rep.tagging["correct_iob"] == ref.get("correct_iob", 0)
    classes = set(per.get("ref", {})) | {c for c, v in per.get("ans", {}).items() if v}
    for c in classes:
        s = rep.per_class[c]
        assert s.n_gold == per.get("ref", {}).get(c, 0), c
        assert s.n_pred == per.get("ans", {}).get(c, 0), c
        for m in ("exact", "left", "right"):
            assert s[m].tp == per.get(m, {}).get(c, 0), (c, m)


def test_against_reference_on_random_files(rng):
    for _ in range(3000):
        n_blocks = int(rng.integers(1, 6))
        gold = [list(rng.choice(GOLD_LABELS, size=int(rng.integers(1, 9))))
                for _ in range(n_blocks)]
        p = rng.random(len(ANSWER_LABELS))
        p /= p.sum()
        answer = [
            [str(rng.choice(ANSWER_LABELS, p=p)) if rng.random() < 0.5 else g for g in block]
            for block in gold
        ]
        assert_same_as_reference(gold, answer)


def test_against_reference_on_noisy_real_output(rng):
    gold, _ = read_label_blocks(data_path("jnlpba", "test.iob2"))
    types = ["protein", "DNA", "RNA", "cell_line", "cell_type"]
    answer = []
    for block in gold:
        new = []
        for lab in block:
            r = rng.random()
            if r < 0.05:
                lab = "O"
            elif r < 0.08:
                lab = "I-" + str(rng.choice(types))
            elif r < 0.11:
                lab = "B-" + str(rng.choice(types))
            new.append(lab)
        answer.append(new)
    assert_same_as_reference(gold, answer)


def counts(gold, answer):
    o = entity_report(gold, answer).overall
    return o.n_gold, o.n_pred, o.exact.tp, o.left.tp, o.right.tp


def test_quirk_answers_before_first_gold_entity_are_not_counted():
    gold = [["O", "O"], ["B-DNA", "O"]]
    answer = [["B-DNA", "O"], ["B-DNA", "O"]]
    # the first answer precedes the file's first gold entity: weight 0
    assert counts(gold, answer) == (1, 1, 1, 1, 1)


def test_quirk_answer_on_the_first_gold_token_counts():
    assert counts([["B-DNA"]], [["B-RNA"]]) == (1, 1, 0, 0, 0)


def test_quirk_ill_formed_answer_is_no_answer_but_can_hit_right():
    gold = [["B-DNA", "I-DNA", "I-DNA"]]
    answer = [["O", "I-DNA", "I-DNA"]]
    # "O I-DNA I-DNA" -> "O I-DNA E-DNA": no B/S, so no answer; E/E is a right hit
    assert counts(gold, answer) == (1, 0, 0, 0, 1)


def test_quirk_class_change_inside_entity():
    gold = [["B-DNA", "I-DNA"]]
    answer = [["B-DNA", "I-RNA"]]
    # one DNA answer; exact miss; left hit; right: classes differ at the last token
    rep = entity_report(gold, answer)
    assert counts(gold, answer) == (1, 1, 0, 1, 0)
    assert rep.per_class["DNA"].n_pred == 1


def test_quirk_right_boundary_only():
    gold = [["B-RNA"], ["O", "B-DNA", "I-DNA"]]
    answer = [["O"], ["B-DNA", "I-DNA", "I-DNA"]]
    assert counts(gold, answer) == (2, 1, 0, 0, 1)
    # the same pair as the file's first sentence: the answer precedes the first
    # gold entity, so it is not counted (weight 0), but the right hit is
    assert counts(gold[1:], answer[1:]) == (1, 0, 0, 0, 1)


def test_quirk_per_class_answers_keyed_by_answer_class():
    gold = [["B-DNA", "O"]]
    answer = [["B-RNA", "O"]]
    rep = entity_report(gold, answer)
    assert rep.per_class["DNA"].n_gold == 1 and rep.per_class["DNA"].n_pred == 0
    assert rep.per_class["RNA"].n_gold == 0 and rep.per_class["RNA"].n_pred == 1


def test_flags_reset_at_block_end():
    # a match flag set in one block never completes an entity in the next one
    gold = [["B-DNA", "I-DNA"], ["I-DNA", "I-DNA"]]
    answer = [["B-DNA", "I-DNA"], ["I-DNA", "I-DNA"]]
    assert_same_as_reference(gold, answer)
    assert counts(gold, answer)[2] == 1


def test_perfect_answer_on_real_test_set():
    path = data_path("jnlpba", "test.iob2")
    rep = evaluate_files(path, path)
    assert rep.overall.n_gold == 8662
    assert {c: s.n_gold for c, s in rep.per_class.items()} == {
        "protein": 5067, "DNA": 1056, "RNA": 118, "cell_line": 500, "cell_type": 1921,
    }
    assert rep.overall.exact.f1 == 1.0


def test_text_report_layout():
    rep = entity_report([["B-DNA", "I-DNA", "O", "B-RNA"]], [["B-DNA", "I-DNA", "O", "O"]])
    text = rep.to_text()
    assert "# of OBJECTs: 2,\t ANSWERs: 1." in text
    assert "     FULLY CORRECT answer with class info: 1 (0.5000 / 1.0000 / 0.6667)," in text
    assert "[<DNA> Identification Performance]" in text
    assert "[<RNA> Identification Performance]" in text


def test_json_shape():
    d = entity_report([["B-DNA", "O"]], [["B-DNA", "O"]]).to_dict()
    assert set(d) == {"overall", "per_class"}
    s = d["overall"]
    assert set(s) == {"n_gold", "n_pred", "exact", "left", "right"}
    assert set(s["exact"]) == {"tp", "precision", "recall", "f1"}
    assert isinstance(s["exact"]["tp"], int) and isinstance(s["exact"]["f1"], float)
    assert d["per_class"]["DNA"]["exact"]["f1"] == 1.0


# --- files ----------------------------------------------------------------------


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_file_reading_follows_the_script(tmp_path):
    # ###MEDLINE lines separate blocks, labels are the last field, trailing tabs dropped
    g = write(tmp_path / "g", "###MEDLINE:1\n\na\tx\tB-DNA\nb\tI-DNA\t\n\nc\tO\n")
    assert read_label_blocks(g) == ([["B-DNA", "I-DNA"], ["O"]], [3, 6])


def test_file_errors_name_file_and_line(tmp_path):
    g = write(tmp_path / "gold.iob2", "a\tB-DNA\nb\tO\n\nc\tO\n\n")
    p = write(tmp_path / "pred.iob2", "a\tB-DNA\n\nc\tO\n\n")
    msg = r"pred.iob2:1: sentence 1 has 1 tokens.*gold.iob2 \(line 1\) it has 2"
    with pytest.raises(ScoringInputError, match=msg):
        evaluate_files(g, p)
    p2 = write(tmp_path / "short.iob2", "a\tB-DNA\nb\tO\n\n")
    with pytest.raises(ScoringInputError, match="1 sentences, but .*gold.iob2 has 2"):
        evaluate_files(g, p2)
    bad = tmp_path / "bad.iob2"
    bad.write_bytes(b"a\tO\n\xff\tO\n\n")
    with pytest.raises(ScoringInputError, match=r"bad.iob2:2: bytes that are not UTF-8"):
        evaluate_files(g, bad)


def test_empty_inputs_do_not_crash():
    rep = entity_report([], [])
    assert rep.overall.exact.f1 == 0.0
    rep = entity_report([["O"]], [["O"]])
    assert rep.overall.n_gold == 0 and np.isclose(rep.overall.exact.f1, 0.0)
