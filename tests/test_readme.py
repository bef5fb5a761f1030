"""The README's Python example runs as written."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_example():
    return re.search(r"## In Python\n\n```python\n(.*?)```", README.read_text(), re.S).group(1)


@pytest.mark.slow
def test_readme_python_example_runs(capsys):
    exec(compile(_python_example(), str(README), "exec"), {})
    assert "FULLY CORRECT answer with class info" in capsys.readouterr().out


@pytest.mark.slow
def test_readme_python_example_runs_on_a_corpus_without_document_ids(monkeypatch, capsys):
    """As written, on sentences that carry no document id (BC5CDR's IOB files, a CoNLL
    file): the grouped folds must not need ids (GroupKFold(3) with one group fails)."""
    import skbioner.datasets
    from skbioner import Sentence

    sample = skbioner.datasets.load_jnlpba_sample

    def without_ids(split):
        corpus = sample(split)
        return type(corpus)(X=[Sentence(list(s)) for s in corpus.X], y=corpus.y,
                            doc_ids=[""] * len(corpus.X), path=None)

    monkeypatch.setattr(skbioner.datasets, "load_jnlpba_sample", without_ids)
    exec(compile(_python_example(), str(README), "exec"), {})
    assert "FULLY CORRECT answer with class info" in capsys.readouterr().out


def test_readme_opens_with_the_two_commands():
    first_block = README.read_text().split("```")[1].strip().splitlines()
    assert first_block == ["pip install . && skbioner demo",
                           'pip install ".[test]" && python -m pytest --slow']
