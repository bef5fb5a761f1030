"""A signal landing inside a compiled (numba) call: the CLI still stops as interrupted."""

import pytest

from skbioner.cli import _info, main


def _raise_wrapped(exc):
    def run(args):
        # what CPython makes of an exception raised by a signal handler while a C
        # function (numba's dispatcher) runs: a SystemError caused by it
        try:
            raise exc
        except BaseException as inner:
            raise SystemError("CPUDispatcher(<function f>) returned a result with an "
                              "exception set") from inner
    return run


def test_ctrl_c_inside_a_compiled_call_is_an_interruption(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(_info, "run", _raise_wrapped(KeyboardInterrupt()))
    assert main(["info", str(tmp_path / "m.skops")]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "skbioner: interrupted"


def test_sigterm_inside_a_compiled_call_exits_143(monkeypatch, tmp_path):
    monkeypatch.setattr(_info, "run", _raise_wrapped(SystemExit(143)))
    with pytest.raises(SystemExit) as exc:
        main(["info", str(tmp_path / "m.skops")])
    assert exc.value.code == 143


def test_other_system_errors_stay_unexpected(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(_info, "run", _raise_wrapped(ValueError("x")))
    assert main(["info", str(tmp_path / "m.skops")]) == 1
    assert "unexpected SystemError" in capsys.readouterr().err


def _raise_nested(exc):
    # a compiled call inside another: each dispatcher wraps what it got
    def run(args):
        try:
            _raise_wrapped(exc)(args)
        except SystemError as inner:
            raise SystemError("CPUDispatcher(<function g>) returned a result with an "
                              "exception set") from inner
    return run


def test_sigterm_inside_nested_compiled_calls_exits_143(monkeypatch, tmp_path):
    monkeypatch.setattr(_info, "run", _raise_nested(SystemExit(143)))
    with pytest.raises(SystemExit) as exc:
        main(["info", str(tmp_path / "m.skops")])
    assert exc.value.code == 143


def test_ctrl_c_inside_nested_compiled_calls_is_an_interruption(monkeypatch, tmp_path):
    monkeypatch.setattr(_info, "run", _raise_nested(KeyboardInterrupt()))
    assert main(["info", str(tmp_path / "m.skops")]) == 130


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), SystemExit(143)])
def test_a_signal_while_tokenizing_stops_the_run_and_fails_no_document(exc):
    # a tokenizer failure concerns its document only; a signal inside the compiled scanner
    # (a SystemError caused by it) is no failure of the document: it stops the run
    from skbioner.tagging import Document, tag_documents
    from skbioner.text import BioTokenizer

    class Interrupted(BioTokenizer):
        def tokenize_text(self, text):
            _raise_wrapped(exc)(None)

    from skbioner._utils import signal_cause

    with pytest.raises(SystemError) as info:  # what the command line reads as 130 or 143
        list(tag_documents(None, [Document("d1", "IL-2 is a gene.", "<test>")],
                           tokenizer=Interrupted(), n_jobs=1))
    assert signal_cause(info.value) is exc
