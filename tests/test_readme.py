"""The README's Python example runs as written."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.slow
def test_readme_python_example_runs(capsys):
    code = re.search(r"## In Python\n\n```python\n(.*?)```", README.read_text(), re.S).group(1)
    exec(compile(code, str(README), "exec"), {})
    assert "FULLY CORRECT answer with class info" in capsys.readouterr().out


def test_readme_opens_with_the_two_commands():
    first_block = README.read_text().split("```")[1].strip().splitlines()
    assert first_block == ["pip install . && skbioner demo",
                           'pip install ".[test]" && python -m pytest --slow']
