"""docs/results.md and README's "which model" table say what the stored records say."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "make_results.py"
RESULTS = REPO / "benchmarks" / "results.jsonl"


def _check(results):
    return subprocess.run([sys.executable, str(SCRIPT), "--check", "--results", str(results)],
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def test_generated_pages_match_the_stored_results():
    proc = _check(RESULTS)
    assert proc.returncode == 0, proc.stderr


def test_a_changed_figure_is_caught(tmp_path):
    records = [json.loads(line) for line in RESULTS.read_text().splitlines() if line.strip()]
    headline = [r for r in records if r.get("headline") and r.get("split") == "test"]
    assert headline, "no headline record stored"
    headline[-1]["exact_f1"] = round(headline[-1]["exact_f1"] - 0.0123, 6)
    changed = tmp_path / "results.jsonl"
    changed.write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = _check(changed)
    assert proc.returncode == 1 and "out of date" in proc.stderr


def test_citation_names_this_version():
    from skbioner import __version__

    assert f"version: {__version__}\n" in (REPO / "CITATION.cff").read_text()
