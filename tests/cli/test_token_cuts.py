"""A model trained on a corpus cut at every hyphen cuts raw text the same way (issue 27)."""

import pytest

from skbioner.cli import main
from tests.conftest import data_path

# every hyphen a token, as BioNLP13CG and BC5CDR cut them
PIECES = ("###MEDLINE:1\n\n" + "IL\tB-protein\n-\tI-protein\n2\tI-protein\nbinds\tO\n.\tO\n\n"
          + "NF\tB-protein\n-\tI-protein\nkappaB\tI-protein\nis\tO\nactive\tO\n.\tO\n\n") * 30
WHOLE = PIECES.replace("IL\tB-protein\n-\tI-protein\n2\tI-protein\n", "IL-2\tB-protein\n") \
              .replace("NF\tB-protein\n-\tI-protein\nkappaB\tI-protein\n", "NF-kappaB\tB-protein\n")


def _train(tmp_path, text, *extra):
    from skbioner.base import final_estimator  # noqa: F401  (the protocol the tagger uses)
    from skbioner.io import load_model

    train = tmp_path / "train.iob2"
    train.write_text(text)
    out = tmp_path / "m.skops"
    assert main(["train", "--train", str(train), "--param", "max_iter=2", "--param",
                 "calibrate=False", "-o", str(out), *extra]) == 0
    return load_model(out)


def _cuts_raw_text(model):
    return hasattr(model, "split_tokens")


def test_a_corpus_cut_at_every_hyphen_makes_a_model_that_cuts_raw_text_so(tmp_path, capsys):
    model = _train(tmp_path, PIECES)
    assert "cuts words at every hyphen" in capsys.readouterr().err
    assert _cuts_raw_text(model) and model.cuts is None


def test_a_corpus_keeping_words_whole_and_recut_none_are_left_alone(tmp_path, capsys):
    assert not _cuts_raw_text(_train(tmp_path, WHOLE))
    assert "every hyphen" not in capsys.readouterr().err
    assert not _cuts_raw_text(_train(tmp_path, PIECES, "--recut", "none"))


@pytest.mark.slow
def test_bionlp13cg_model_tags_raw_hyphenated_words_as_gold_tokens(tmp_path):
    import skbioner
    from skbioner import Sentence

    train = data_path("bionlp13cg", "train.tsv")
    out = tmp_path / "cg.skops"
    assert main(["train", "--train", str(train), "-q", "-o", str(out)]) == 0
    model = skbioner.load_model(out)
    raw = skbioner.tag_text("Interleukin-6 activates NF-kappaB .", model=model)
    gold = model.predict_entities([Sentence(["Interleukin", "-", "6", "activates", "NF", "-",
                                             "kappaB", "."])])[0]
    # the gold tokens' entities as character spans of the same text
    starts = [0, 11, 12, 14, 24, 26, 27, 34]
    ends = [11, 12, 13, 23, 26, 27, 33, 35]
    gold_spans = {(t, starts[i], ends[j - 1]): p for t, i, j, p in gold}
    raw_spans = {(e.type, e.start, e.end): e.confidence for e in raw}
    assert set(raw_spans) == set(gold_spans) and raw_spans
    for key, p in gold_spans.items():
        assert abs(raw_spans[key] - p) <= 0.05
