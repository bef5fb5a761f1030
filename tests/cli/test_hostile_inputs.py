"""Issue 22's measure: benchmarks/hostile_inputs.py, every case passing, nothing written
outside the output directory (the script checks that around each case)."""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "hostile_inputs.py"


@pytest.fixture(scope="module")
def hostile():
    spec = importlib.util.spec_from_file_location("hostile_inputs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostile_inputs"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("hostile_inputs", None)


def test_every_item_of_the_issue_has_a_case(hostile):
    assert {item for item, *_ in hostile.CASES} == set(range(1, 11))


def test_every_hostile_case_passes(hostile, tmp_path, capsys):
    rows = hostile.run_all(tmp_path)
    failed = [f"{name}: {observed}" for _, name, _, observed, ok in rows if not ok]
    assert not failed, "\n".join(failed)
    assert len(rows) == len(hostile.CASES)
