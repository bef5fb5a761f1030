"""``skbioner --help`` starts fast: building the parser imports nothing heavy."""

import subprocess
import sys

import pytest

HEAVY = ("numpy", "scipy", "sklearn", "numba", "joblib")


@pytest.mark.parametrize("argv", [["--help"], ["tag", "--help"], ["train", "--help"]])
def test_help_imports_nothing_heavy(argv):
    code = (
        "import sys\n"
        "from skbioner.cli._main import build_parser\n"
        "try:\n"
        f"    build_parser().parse_args({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert res.stdout.strip().splitlines()[-1] == "[]"


def test_tag_output_formats_agree_with_tagging():
    from skbioner.cli._tag import INPUT_FORMATS, OUTPUT_FORMATS
    from skbioner.tagging import INPUT_FORMATS as TAGGING_INPUT
    from skbioner.tagging import OUTPUT_FORMATS as TAGGING

    assert OUTPUT_FORMATS == TAGGING
    assert INPUT_FORMATS == TAGGING_INPUT


def test_tag_batch_size_default_agrees_with_tagging():
    from skbioner.cli._tag import BATCH_SIZE, PARALLEL_MIN_DOCUMENTS
    from skbioner.tagging._tagger import BATCH_SIZE as TAGGING
    from skbioner.tagging._tagger import PARALLEL_MIN_DOCUMENTS as PARALLEL

    assert BATCH_SIZE == TAGGING and PARALLEL_MIN_DOCUMENTS == PARALLEL
