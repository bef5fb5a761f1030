"""Every script or test the docs and the code name by its path exists at that path.

Scripts move (a benchmark to ``benchmarks/archive/``, a data script to ``scripts/``);
a page or a docstring that still names the old path sends a reader to nothing.
"""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PATH = re.compile(r"\b(?:benchmarks|scripts|tests|examples)/[\w/-]*\w\.py\b")


def _texts():
    yield from (REPO / name for name in ("README.md", "CHANGELOG.md"))
    yield from sorted((REPO / "docs").rglob("*.md"))
    for folder in ("skbioner", "scripts", "benchmarks", "examples"):
        for suffix in ("*.py", "*.md"):
            yield from sorted((REPO / folder).rglob(suffix))


def test_every_named_script_exists():
    missing = []
    for path in _texts():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in PATH.findall(line):
                if not re.search(r"/[A-Z]+\.py$", name) and not (REPO / name).is_file():
                    missing.append(f"{path.relative_to(REPO)}:{n}: {name}")
    assert not missing, "\n".join(missing)
