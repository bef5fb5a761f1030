"""Issue 22 on the command line: one-line errors for every exception, hints that name
options, standard output as '-', metadata printed safely.

The full sweep -- every case of the issue, with the check that nothing is
written outside the output directory -- is tests/hostile_inputs.py,
run by tests/cli/test_hostile_inputs.py.
"""

import json
import re
import zipfile
from pathlib import Path

import pytest

from skbioner.cli import main
from skbioner.cli._main import CLI_HINTS
from tests.cli.conftest import TRAIN


def run(capsys, *args):
    capsys.readouterr()
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("exc", [AttributeError("'list' object has no attribute 'get'"),
                                 RecursionError("maximum recursion depth exceeded"),
                                 OverflowError("cannot fit 'int'"), AssertionError()])
def test_any_exception_is_one_line(toy_files, tmp_path, capsys, monkeypatch, exc):
    # item 7: OverflowError, AttributeError... escaped as tracebacks
    train, model = toy_files

    def boom(*args, **kwargs):
        raise exc

    monkeypatch.setattr("skbioner.io.read_columns", boom)
    status, _, err = run(capsys, "predict", model, train, "-o", tmp_path / "p.iob2")
    assert status == 1 and err.count("\n") == 1 and err.startswith("skbioner predict: error: ")
    assert "Traceback" not in err and not (tmp_path / "p.iob2").exists()
    monkeypatch.setenv("SKBIONER_TRACEBACK", "1")
    if not isinstance(exc, RecursionError):
        with pytest.raises(type(exc)):
            main(["predict", str(model), str(train), "-o", str(tmp_path / "p.iob2")])


def test_hints_name_options_not_python_arguments(tmp_path, capsys):
    # item 7: "pass scheme=None" was shown on the command line
    bad = tmp_path / "iobes.iob2"
    bad.write_text("IL-2\tS-DNA\n\n")
    status, _, err = run(capsys, "convert", bad, tmp_path / "o.iob2", "--to-scheme", "IOB1")
    assert status == 1 and "--from-scheme" in err and "scheme=None" not in err
    one = tmp_path / "one.iob2"
    one.write_text("IL-2\ngene\n\n")
    status, _, err = run(capsys, "train", "--train", one, "-o", tmp_path / "m.skops")
    assert status == 1 and "label_col=None" not in err and "no label column" in err
    assert {python for _, python, _ in CLI_HINTS} == {
        "pass scheme=None to read the column without validation",
        "pass label_col=None for a file without a label column"}  # both met above


def test_dash_writes_standard_output(toy_files, tmp_path, capsys):
    # item 2: `-o -` writes stdout (predict, convert with --to, train)
    train, model = toy_files
    status, out, _ = run(capsys, "predict", model, train, "-o", "-")
    assert status == 0 and out == TRAIN  # the toy model tags its training file perfectly
    status, out, _ = run(capsys, "convert", train, "-", "--to", "jsonl")
    assert status == 0 and json.loads(out.splitlines()[0])["id"] == "1"
    assert not (Path.cwd() / "-").exists()


def test_info_shows_crafted_metadata_escaped(toy_files, tmp_path, capsys):
    # item 10: escape sequences printed raw; a traceback on fields of other types
    from skbioner.io import load_model, save_model

    _, model = toy_files
    path = save_model(load_model(model), tmp_path / "m.skops", metadata={
        "description": "\x1b]0;owned\x07\x1b[2J", "training_data": ["a", "list"],
        "versions": "1.0", "train_seconds": "soon", "command": "\u202eevil"})
    status, out, err = run(capsys, "info", path)
    assert status == 0 and err == ""
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "about: \\x1b]0;owned\\x07\\x1b[2J" in out and "\\u202eevil" in out
    status, out, _ = run(capsys, "info", path, "--json")
    assert status == 0 and "\u202e" not in out
    assert json.loads(out)["metadata"]["command"] == "\u202eevil"
    # metadata that is not a JSON object: the model is still described
    data = path.read_bytes()
    bad = tmp_path / "bad.skops"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            content = src.read(item)
            dst.writestr(item, b"[1, 2]" if item.filename == "skbioner-metadata.json"
                         else content)
    assert data
    status, out, err = run(capsys, "info", bad)
    assert status == 0 and "metadata not shown: " in out and "not a JSON object" in out


def test_train_checks_the_output_before_training(toy_files, tmp_path, capsys):
    # item 8: a missing directory was found after the whole training
    train, _ = toy_files
    status, _, err = run(capsys, "train", "--train", train, "-o", tmp_path / "no" / "m.skops")
    assert status == 1 and err.count("\n") == 1
    assert re.search(r"no/m\.skops: No such file or directory$", err.strip())
    (tmp_path / "dir.skops").mkdir()
    status, _, err = run(capsys, "train", "--train", train, "-o", tmp_path / "dir.skops")
    assert status == 1 and "Is a directory" in err and "reading" not in err


def test_what_inputs_hold_is_printed_escaped(tmp_path, capsys):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "d\x1b", "text": "IL-2", "entities": []}) + "\n")
    status, _, err = run(capsys, "convert", gold, tmp_path / "o.jsonl")
    assert "\x1b" not in err


def test_sigterm_in_process_unwinds_and_the_deadline_is_cancelled(toy_files, tmp_path,
                                                                  monkeypatch):
    # item 8: SIGTERM left .NAME.<hex>.tmp behind (SIGINT cleaned up); every command now
    # unwinds on it, and called in-process the 10-second exit deadline does not outlive it
    import os
    import signal

    from skbioner.cli import _main
    from skbioner.io import _atomic

    train, model = toy_files
    real = _atomic.os.fsync

    def terminated(fd):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(fd)

    monkeypatch.setattr(_atomic.os, "fsync", terminated)
    with pytest.raises(SystemExit) as excinfo:
        main(["predict", str(model), str(train), "-o", str(tmp_path / "p.iob2")])
    assert excinfo.value.code == 143 and os.listdir(tmp_path) == []
    _main._on_sigterm.watchdog.join(5)  # cancelled: it ends at once, without exiting
    assert not _main._on_sigterm.watchdog.is_alive()
