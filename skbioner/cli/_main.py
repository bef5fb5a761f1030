"""Argument parsing and error handling shared by every subcommand."""

from __future__ import annotations

import argparse
import sys

from .._utils import signal_cause
from . import _clusters, _convert, _demo, _evaluate, _info, _predict, _tag, _train
from ._formats import printable

SUBCOMMANDS = (_train, _predict, _tag, _evaluate, _convert, _info, _clusters, _demo)


def build_parser() -> argparse.ArgumentParser:
    from .._version import __version__

    parser = argparse.ArgumentParser(
        prog="skbioner",
        description="Biomedical named entity recognition with scikit-learn compatible models.",
    )
    parser.add_argument("--version", action="version", version=f"skbioner {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in SUBCOMMANDS:
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.__doc__)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


#: Seconds a run stopped by SIGTERM may spend cleaning up before it exits regardless.
TERM_GRACE_SECONDS = 10

#: Hints of the library's messages that name Python arguments, and what to say on the
#: command line instead (per command; None: any command).  tests/cli/test_hostile_round_two.py
#: checks that every hint is met.
CLI_HINTS = (
    (None, "pass scheme=None to read the column without validation",
     "skbioner reads IOB2 labels: convert the file first (skbioner convert IN OUT "
     "--from-scheme SCHEME --to-scheme IOB2)"),
    ("convert", "pass scheme=None to read the column without validation",
     "give the file's scheme with --from-scheme"),
    (None, "pass label_col=None for a file without a label column",
     "the file has no label column (token<TAB>label lines are needed)"),
)


def _on_sigterm(signum, frame):
    """SIGTERM unwinds like Ctrl-C (the atomic writers remove their temporary files).

    Should shutting down worker processes hang, the process exits anyway after
    :data:`TERM_GRACE_SECONDS`, or at once on a second SIGTERM; outputs are
    whole either way.
    """
    import os
    import threading

    if getattr(_on_sigterm, "fired", False):
        os._exit(143)
    _on_sigterm.fired = True
    _on_sigterm.watchdog = threading.Timer(TERM_GRACE_SECONDS, os._exit, args=(143,))
    _on_sigterm.watchdog.daemon = True
    _on_sigterm.watchdog.start()
    sys.exit(143)


def kernels_compiled():
    """Whether the decoding kernel is in numba's cache (so the others most likely are too).

    After a fresh install every kernel compiles on its first use (a minute of a
    first run, once); the command line says so in one line when this is False.

    Returns
    -------
    bool or None
        None when numba's cache cannot be inspected (caching off, another numba).
    """
    import os

    try:
        from ..decoding._viterbi import _viterbi_csr_kernel

        return os.path.exists(_viterbi_csr_kernel._cache._cache_file._index_path)
    except Exception:  # numba internals: no note rather than a failure
        return None


def _first_run():
    return kernels_compiled() is False


class CompileNotes:
    """Lines on stderr while numba compiles skbioner's kernels (cache misses only).

    A first run spends most of its time compiling, in one call that would
    otherwise show nothing for a quarter of a minute or more (the first
    training epoch, the first tagged batch).  Every kernel that starts to
    compile (numba's ``numba:compile`` event: a signature not in the cache)
    gets a line, ``skbioner: compiling NAME ...``, the kernels it calls only
    when ``interval`` seconds have passed since the last line; a progress bar
    on screen is kept intact (``tqdm.write``).  Runs that find every kernel in
    the cache print nothing.

    Parameters
    ----------
    stream : file, default=sys.stderr
    interval : float, default=2.0
        Seconds between lines of kernels compiled inside another one.
    """

    def __init__(self, stream=None, interval=2.0):
        import threading

        self.stream = stream
        self.interval = interval
        self.count = 0
        self._last = None
        self._depth = threading.local()
        self._listener = None

    def start(self, dispatcher):
        import time

        depth = getattr(self._depth, "n", 0)
        self._depth.n = depth + 1
        func = getattr(dispatcher, "py_func", None)
        module = getattr(func, "__module__", "") or ""
        if not module.startswith("skbioner"):
            return
        self.count += 1
        now = time.monotonic()
        if depth == 0 or self._last is None or now - self._last >= self.interval:
            self._last = now
            where = module.split(".")[1] if module.count(".") else module
            from tqdm import tqdm

            tqdm.write(f"skbioner: compiling {func.__name__} ({where}) ...",
                       file=self.stream or sys.stderr)

    def end(self):
        self._depth.n = max(getattr(self._depth, "n", 1) - 1, 0)

    def __enter__(self):
        try:
            from numba.core import event
        except ImportError:  # another numba: no notes
            return self
        notes = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                notes.start(ev.data.get("dispatcher"))

            def on_end(self, ev):
                notes.end()

        self._listener = _Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc):
        if self._listener is not None:
            from numba.core import event

            event.unregister("numba:compile", self._listener)
            self._listener = None
        return False


def main(argv=None) -> int:
    """Run the command line; SIGTERM is handled as Ctrl-C is (outputs stay whole).

    ``argv=None`` (the ``skbioner`` command, ``python -m skbioner``) reads
    ``sys.argv``; the process then ends with the command, and a run stopped by
    SIGTERM exits after :data:`TERM_GRACE_SECONDS` at the latest, even if
    shutting down worker processes hangs.  Called with a list (in-process,
    from tests), that deadline is cancelled when ``main`` returns or raises.
    """
    import signal
    import threading

    parser = build_parser()
    args = parser.parse_args(argv)
    if threading.current_thread() is not threading.main_thread():
        return _run(args)
    _on_sigterm.fired, _on_sigterm.watchdog = False, None
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if argv is not None and _on_sigterm.watchdog is not None:
            _on_sigterm.watchdog.cancel()  # this process goes on: no exit in 10 s


#: commands that run compiled kernels (the others start without compiling anything)
_COMPILING = {"train", "predict", "tag", "demo", "clusters"}
#: ... and those after which a first run compiles the tagging kernels in a second process
#: (``_warmup.py``): the demo (a tag usually follows) and tag itself
_WARMING = {"demo", "tag"}


def _run(args) -> int:
    import contextlib
    import os

    notes = contextlib.nullcontext()
    if args.command in _COMPILING:
        if _first_run():
            print("skbioner: first run after installing: compiling the numerical kernels once "
                  "(under a minute on an idle machine; later runs start in seconds)",
                  file=sys.stderr, flush=True)
            if args.command in _WARMING:
                from ._warmup import start

                start(float64_weights=args.command == "demo")  # the demo's own model
        notes = CompileNotes()
        from .._numba_cache import tolerate_cache_write_errors

        tolerate_cache_write_errors()
    try:
        with notes:
            status = args.run(args)
        sys.stdout.flush()  # a closed pipe is found here, not in the flush at exit
    except KeyboardInterrupt:
        print("skbioner: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `skbioner info --json | head -1`: the reader has gone
        # exit quietly, as the Python documentation's recipe has it (``signal`` module, "Note
        # on SIGPIPE"): the rest of the output, and the flush at exit that would fail again
        # and print a traceback, go to os.devnull; the status is 141 (128 + SIGPIPE), what a
        # command killed by SIGPIPE reports to the shell
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
            return 141
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
        return 141
    except (ValueError, TypeError, OSError, KeyError, LookupError) as exc:
        message = str(exc) or type(exc).__name__
        if isinstance(exc, OSError) and exc.filename and exc.strerror:
            message = f"{exc.filename}: {exc.strerror}"
        for only, python, cli in sorted(CLI_HINTS, key=lambda h: h[0] is None):  # own first
            if (only is None or only == args.command) and python in message:
                message = message.replace(python, cli)
                break
        _error(args.command, message)
        return 1
    except MemoryError:
        model = getattr(args, "model_file", None)
        _error(args.command, "out of memory (an input too large, or not a corpus file?"
               + (f" or the model file {model} damaged?)" if model else ")"))
        return 1
    except RecursionError:
        _error(args.command, "an input is nested too deeply to read (a crafted file?)")
        return 1
    except Exception as exc:  # a bug, or an input nothing above foresaw: still one line
        # Ctrl-C or SIGTERM landing inside a compiled (numba) call comes back as a
        # SystemError ("returned a result with an exception set") caused by it
        cause = signal_cause(exc)
        if isinstance(cause, KeyboardInterrupt):
            print("skbioner: interrupted", file=sys.stderr)
            return 130
        if isinstance(cause, SystemExit):  # the SIGTERM handler's exit (143)
            raise cause from None
        if os.environ.get("SKBIONER_TRACEBACK"):
            raise
        model = getattr(args, "model_file", None)
        if model is not None:  # a model failing oddly: a crafted or damaged file, or a bug
            _error(args.command, f"{model}: the model file is invalid or damaged (unexpected "
                                 f"{type(exc).__name__}: {exc}); if skbioner saved it as it "
                                 "is, please report it (SKBIONER_TRACEBACK=1 shows where)")
            return 1
        _error(args.command, f"unexpected {type(exc).__name__}: {str(exc) or '(no message)'} "
                             "(set SKBIONER_TRACEBACK=1 for the traceback, and please report it)")
        return 1
    return int(status or 0)


def _error(command, message):
    one_line = " ".join(message.splitlines()) if "\n" in message else message
    print(f"skbioner {command}: error: {printable(one_line)}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
