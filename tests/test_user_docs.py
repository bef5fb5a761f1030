"""The user documentation speaks to a user: no issue numbers, branches or machine paths."""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
USER_DOCS = ["README.md", "docs/first-hour.md", "docs/user-guide.md", "docs/index.md",
             "docs/results.md"]
#: what belongs to the project's work, not to a user's reading
NOTEBOOK = {
    "an issue": re.compile(r"\b[Ii]ssues?\s*#?\d+|\bthe issue'?s?\b"),
    "a branch": re.compile(r"\b(this|that|another|the) branch\b|\bbranch(es)?'s\b"),
    "a machine path": re.compile(r"(?<![\w.~])/(?:work|home|tmp|Users|mnt|root)/"),
    "an uncommitted checkout": re.compile(r"\+dirty\b"),
}


@pytest.mark.parametrize("doc", USER_DOCS)
def test_user_docs_name_no_issue_branch_or_machine_path(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    found = [f"{doc}:{text.count(chr(10), 0, m.start()) + 1}: {what} ({m.group()!r})"
             for what, pattern in NOTEBOOK.items() for m in pattern.finditer(text)]
    assert not found, "\n".join(found)


def test_the_sections_the_command_line_cites_exist():
    """``docs/x.md ("Section")`` in a --help text names a heading of that page."""
    cited = []
    for path in sorted((REPO / "skbioner" / "cli").glob("*.py")):
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        cited += [(path.name, page, section) for page, section in
                  re.findall(r"docs/([\w-]+\.md) \(\"([^\"]+)\"\)", text)]
    assert cited
    for source, page, section in cited:
        headings = [line.lstrip("#").strip() for line in
                    (REPO / "docs" / page).read_text(encoding="utf-8").splitlines()
                    if line.startswith("#")]
        assert any(h.startswith(section) for h in headings), (source, page, section)
