"""Argument parsing and error handling shared by every subcommand."""

from __future__ import annotations

import argparse
import sys

from . import _convert, _demo, _evaluate, _info, _predict, _tag, _train

SUBCOMMANDS = (_train, _predict, _tag, _evaluate, _convert, _info, _demo)


class UserError(Exception):
    """An error in what the user asked for: one line on stderr, exit status 1."""


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


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
    except KeyboardInterrupt:
        print("skbioner: interrupted", file=sys.stderr)
        return 130
    except (UserError, ValueError, TypeError, OSError, KeyError, LookupError) as exc:
        message = str(exc) or type(exc).__name__
        if isinstance(exc, OSError) and exc.filename and exc.strerror:
            message = f"{exc.filename}: {exc.strerror}"
        print(f"skbioner {args.command}: error: {_one_line(message)}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"skbioner {args.command}: error: out of memory (an input too large, or not a "
              "corpus file?)", file=sys.stderr)
        return 1
    return int(status or 0)


def _one_line(message):
    return " ".join(message.splitlines()) if "\n" in message else message


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
