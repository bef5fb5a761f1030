"""MajorityTagger and SegmentEncoder specifics (the common checks are in test_common.py)."""

import joblib
import pytest
from sklearn.exceptions import NotFittedError

from skbioner.models import MajorityTagger
from skbioner.schemes import SegmentEncoder


def test_dont_overwrite_parameters_majority():
    # sklearn's check_dont_overwrite_parameters feeds 2D numeric X; same idea on sequences
    est = MajorityTagger(min_count=2)
    params = est.get_params()
    before = dict(vars(est))
    est.fit([["a", "b"]], [["B-X", "O"]])
    assert est.get_params() == params
    added = set(vars(est)) - set(before)
    assert added and all(k.endswith("_") and not k.startswith("_") for k in added)


X = [["IL-2", "gene", "expression"], ["NF-kappa", "B", "binds"]]
Y = [["B-DNA", "I-DNA", "O"], ["B-protein", "I-protein", "O"]]


def test_majority_unfitted_and_persistence(tmp_path):
    with pytest.raises(NotFittedError):
        MajorityTagger().predict(X)
    m = MajorityTagger().fit(X, Y)
    joblib.dump(m, tmp_path / "m.joblib")
    m2 = joblib.load(tmp_path / "m.joblib")
    assert m2.predict(X) == m.predict(X) == Y
    assert m.score(X, Y) == 1.0


def test_majority_does_not_modify_input():
    x = [list(s) for s in X]
    y = [list(s) for s in Y]
    MajorityTagger().fit(x, y).predict(x)
    assert x == X and y == Y


def test_majority_bad_input_names_sentence():
    with pytest.raises(ValueError, match=r"y\[1\] has 2 labels but sentence 1 has 3 tokens"):
        MajorityTagger().fit(X, [Y[0], ["O", "O"]])
    with pytest.raises(ValueError, match=r"y\[0\]: label 'E-DNA'"):
        MajorityTagger().fit(X[:1], [["E-DNA", "O", "O"]])
    with pytest.raises(ValueError, match="empty token"):
        MajorityTagger().fit([["a", ""]], [["O", "O"]])


def test_segment_encoder_unfitted_and_persistence(tmp_path):
    with pytest.raises(NotFittedError):
        SegmentEncoder().transform(Y)
    enc = SegmentEncoder(scheme="BIES").fit(Y)
    assert list(enc.classes_) == ["B-O", "I-O", "E-O", "S-O", "B-DNA", "I-DNA", "E-DNA",
                                  "S-DNA", "B-protein", "I-protein", "E-protein", "S-protein"]
    joblib.dump(enc, tmp_path / "e.joblib")
    enc2 = joblib.load(tmp_path / "e.joblib")
    assert enc2.transform(Y) == enc.transform(Y)
    assert enc2.inverse_transform(enc2.transform(Y)) == Y


def test_segment_encoder_errors():
    with pytest.raises(ValueError, match="'scheme' parameter of SegmentEncoder"):
        SegmentEncoder(scheme="XYZ").fit(Y)
    with pytest.raises(ValueError, match=r"y\[1\]: label 'S-DNA' at token 0"):
        SegmentEncoder().fit([["O"], ["S-DNA"]])


def test_majority_plain_labels():
    X2 = [["The", "cells", "grow"], ["The", "gene", "binds"], ["A", "gene"]]
    y2 = [["DT", "NNS", "VBP"], ["DT", "NN", "VBZ"], ["DT", "NN"]]
    m = MajorityTagger(scheme=None).fit(X2, y2)
    assert m.predict([["The", "unknown"]]) == [["DT", "DT"]]  # unseen: the commonest label
    assert m.score(X2, y2) == 1.0
    with pytest.raises(ValueError, match="'scheme' parameter of MajorityTagger"):
        MajorityTagger(scheme="BIES").fit(X2, y2)
