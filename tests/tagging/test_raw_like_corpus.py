"""Raw text tagged like the corpus's tokens: learned word cuts and sentence rules (CLI and
Python, bundled model)."""

import json
import subprocess
import sys

import skbioner
from skbioner.text import BioTokenizer

TEXT = ("OBJECTIVE:\nTax-induced activation of NF-kappaB-dependent transcription was\n"
        "studied in Jurkat T cells.")


def test_tag_text_cuts_words_where_the_corpus_would():
    ents = skbioner.tag_text(TEXT)
    # "Tax-induced" is cut after "Tax" (the corpus cuts it there when Tax is an entity),
    # so the entity can end inside the word of the raw text
    assert ("protein", "Tax") in [(e.type, e.text) for e in ents]
    assert ("protein", "NF-kappaB") in [(e.type, e.text) for e in ents]
    # the older tokenizer keeps those words whole: no entity can end inside them (for the
    # bundled model's tagger alone; the bundled model cuts words itself)
    old = skbioner.tag_text(TEXT, skbioner.load_model().tagger_,
                            tokenizer=BioTokenizer(cuts=None, split_suffixes=False))
    assert "Tax" not in [e.text for e in old]


def test_heading_ends_a_sentence_and_a_wrapped_line_does_not():
    sentences, _ = BioTokenizer().tokenize_text(TEXT)
    assert [list(s) for s in sentences][0] == ["OBJECTIVE", ":"]
    assert len(sentences) == 2  # "... was\nstudied ..." is one sentence


def test_cli_tag_gives_the_same_entities(tmp_path):
    (tmp_path / "d1.txt").write_text(TEXT, encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "skbioner", "tag", str(tmp_path / "d1.txt")],
                         capture_output=True, text=True, check=True)
    got = json.loads(res.stdout)["entities"]
    want = skbioner.tag_text(TEXT)
    assert [(e["type"], e["start"], e["end"]) for e in got] == [
        (e.type, e.start, e.end) for e in want]
