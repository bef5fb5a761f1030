"""Issue 22's measure: tests/hostile_inputs.py, every case passing, nothing written
outside the output directory (the script checks that around each case)."""

import pytest

from tests.conftest import hostile_inputs


@pytest.fixture(scope="module")
def hostile():
    return hostile_inputs()


def test_every_item_of_the_issue_has_a_case(hostile):
    assert {item for item, *_ in hostile.CASES} == set(range(1, 11)) | {
        f"r3.{i}" for i in range(1, 12)}  # issue 37's items (round three)


@pytest.mark.slow  # end to end: ~50 commands, some in subprocesses (~2 min)
def test_every_hostile_case_passes(hostile, tmp_path):
    rows = hostile.run_all(tmp_path)
    failed = [f"{name}: {observed}" for _, name, _, observed, ok in rows if not ok]
    assert not failed, "\n".join(failed)
    assert len(rows) == len(hostile.CASES)
