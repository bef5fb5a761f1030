"""JSON inputs nested too deeply: an error naming the file and line, never RecursionError."""

import json

import pytest

from skbioner.io import CorpusFormatError, detect_format, read_jsonl
from skbioner.io._json import MAX_JSON_DEPTH, JSONDepthError, loads
from tests.io.helpers import assert_format_error

DEEP = "[" * 50_000 + "]" * 50_000


def test_loads_bounds_the_depth():
    assert len(json.dumps(loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH))) == 2 * MAX_JSON_DEPTH
    with pytest.raises(JSONDepthError):
        loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(JSONDepthError):  # deeper than the parser's own stack
        loads(DEEP)
    assert isinstance(JSONDepthError(), ValueError)
    with pytest.raises(json.JSONDecodeError):
        loads("{")


def test_a_deep_jsonl_record_names_its_line(write_file):
    # issue 22, item 5: RecursionError tracebacks from convert, train, evaluate
    path = write_file("deep.jsonl", json.dumps({"id": "a", "text": "x"}) + "\n"
                      + '{"id": "b", "text": "y", "entities": ' + DEEP + "}\n")
    with pytest.raises(CorpusFormatError, match="nested more than 100 levels") as excinfo:
        read_jsonl(path)
    assert_format_error(excinfo, path, 2)


def test_detecting_the_format_of_a_deep_first_line(write_file):
    assert detect_format(write_file("deep.json", DEEP)) in ("bioc-json", "jsonl")
