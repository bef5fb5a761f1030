"""Every script in examples/ runs as documented on the bundled sample and prints its results.

Each example runs in a subprocess (``python -W error``: an example must not emit any warning)
with a temporary working directory and its output directory argument.  ``SKBIONER_DATA``
points to an empty directory, so the examples take the path CI takes without the shared
data; the ``slow`` tests re-run the examples that read the shared data when it is present.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import data_path

pytestmark = pytest.mark.slow  # end to end: run with --slow (CI does)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.py"))
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

F1 = r"0\.\d{4}"


def pin(value):
    """A printed F1 that must be ``value`` (within 0.0015: see tests/models/test_quality.py)."""
    return rf"(?P<f1>{F1})(?#pin={value})"


# What each example must print (regular expressions, searched in stdout; a ``pin`` is a
# score fixed by the example's seeds on the bundled sample) and write into its output
# directory.
EXPECTED = {
    "train_evaluate.py": (
        [r"FULLY CORRECT answer with class info",
         rf"Exact-match F1 \(official\): {pin(0.6566)}",
         r"Exact-match F1 \(official\): (0\.\d{4})\n(?s:.*)rescored from the files: \1\n"],
        ["gold.iob2", "predictions.iob2", "report.json"],
    ),
    "grid_search.py": (
        [r"Best params: \{'model__C': 0\.(01|1)\}",
         rf"Best cross-validated exact F1: {pin(0.6789)}",
         rf"Test exact F1 of the refitted best model: {pin(0.6397)}"],
        ["cv_results.csv"],
    ),
    "pos_hmm_pipeline.py": (
        [r"from the sample's training sentences", rf"words +{pin(0.6566)}",
         rf"\+pos +{pin(0.6703)}", rf"\+pos\+hmm +{pin(0.6550)}",
         r"F1 change with POS and HMM features: [+-]0\.\d{4}"],
        ["pos_hmm_scores.json"],
    ),
    "persistence.py": (
        [r"model\.skops: \d+\.\d\d MB", r"identical predictions after loading: True",
         r"refused by default: refused: this is a pickle",
         r"identical predictions with allow_pickle=True: True",
         r"model-sparse\.skops: \d+\.\d\d MB"],
        ["model.skops", "model.joblib", "model-sparse.skops"],
    ),
    "tag_raw_text.py": (
        [r"tagging input\.jsonl", r"example-1: 2 sentences", r"protein +\d+ +\d+  NF-kappa B",
         r"wrote .*entities\.jsonl and 2 brat documents"],
        ["entities.jsonl", "brat/example-1.ann", "brat/example-2.txt"],
    ),
    "per_class_f1_plot.py": (
        [rf"protein +\d+ +\d+ +{F1}", rf"overall +1151 +\d+ +{pin(0.6566)}", r"wrote .*\.png"],
        ["per_class_f1.png"],
    ),
}


def run_example(name, cwd, *args, data_dir=None):
    env = dict(os.environ)
    env["SKBIONER_DATA"] = str(data_dir if data_dir is not None else cwd / "no-shared-data")
    # the checked-out package, whether or not (and however) it is installed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-W", "error", str(EXAMPLES / name), *map(str, args)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout}\n{proc.stderr}"
    assert proc.stderr == "", f"{name} wrote to stderr:\n{proc.stderr}"
    return proc.stdout


def check_stdout(name, stdout, patterns):
    for pattern in patterns:
        match = re.search(pattern, stdout)
        assert match, f"{name}: no match for {pattern!r} in:\n{stdout}"
        expected = re.search(r"\(\?#pin=([0-9.]+)\)", pattern)
        if expected:
            got, want = float(match.group("f1")), float(expected.group(1))
            assert abs(got - want) <= 0.0015, f"{name}: F1 {got} is not the pinned {want}"


def test_every_example_has_expectations():
    assert SCRIPTS, f"no example in {EXAMPLES}"
    assert set(SCRIPTS) == set(EXPECTED), "add the new example to EXPECTED (or remove it)"


@pytest.mark.parametrize("name", [s for s in SCRIPTS if s != "per_class_f1_plot.py"])
def test_example_runs(name, tmp_path):
    patterns, files = EXPECTED[name]
    out = tmp_path / "out"
    stdout = run_example(name, tmp_path, out)
    check_stdout(name, stdout, patterns)
    for f in files:
        assert (out / f).is_file(), f"{name} did not write {f}"


def test_example_docstrings():
    for name in SCRIPTS:
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        assert text.startswith('"""'), f"{name}: no module docstring"
        assert f"python examples/{name}" in text, f"{name}: the docstring says how to run it"


def test_per_class_f1_plot(tmp_path):
    pytest.importorskip("matplotlib")
    name = "per_class_f1_plot.py"
    patterns, (png,) = EXPECTED[name]
    stdout = run_example(name, tmp_path)  # default output: the working directory
    check_stdout(name, stdout, patterns)
    assert (tmp_path / png).read_bytes()[:8] == PNG_MAGIC


def test_per_class_f1_plot_output_argument(tmp_path):
    pytest.importorskip("matplotlib")
    spec = importlib.util.spec_from_file_location("per_class_f1_plot",
                                                  EXAMPLES / "per_class_f1_plot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.output_path(None) == Path("per_class_f1.png")
    assert module.output_path(str(tmp_path / "a" / "f1.png")) == tmp_path / "a" / "f1.png"
    assert (tmp_path / "a").is_dir()
    assert module.output_path(str(tmp_path / "b")) == tmp_path / "b" / "per_class_f1.png"
    assert (tmp_path / "b").is_dir()


@pytest.mark.slow
def test_tag_raw_text_on_standoff_abstracts(tmp_path):
    data_path("jnlpba", "test-standoff")
    stdout = run_example("tag_raw_text.py", tmp_path, tmp_path / "out",
                         data_dir=data_path())
    match = re.search(rf"character-offset exact match .* F1 ({F1})", stdout)
    assert match, stdout
    assert float(match.group(1)) > 0.5
    assert len(list((tmp_path / "out" / "brat").glob("*.ann"))) == 5


@pytest.mark.slow
def test_pos_hmm_pipeline_on_unlabeled_corpus(tmp_path):
    unlabeled = data_path("unlabeled", "biomed-sentences.txt")
    stdout = run_example("pos_hmm_pipeline.py", tmp_path, data_dir=data_path())
    assert f"from {unlabeled}" in stdout
    # words and +pos do not depend on the HMM; +pos+hmm does (states from the real corpus)
    check_stdout("pos_hmm_pipeline.py", stdout,
                 EXPECTED["pos_hmm_pipeline.py"][0][1:3] + [rf"\+pos\+hmm +{pin(0.6496)}"])
