"""The text of an input file, as every reader of the package gets it.

Bytes are read once (a pipe works; a device is refused before anything is
read; a name ending in ``.gz`` is read through gzip), decoded strictly (a
UTF-8 byte order mark is not text), and control characters that are never
text are refused with the line they are on.  The readers of column files,
brat, BioC, PubTator, JSONL and unlabeled sentences share it.
"""

from __future__ import annotations

import codecs
import errno
import gzip
import lzma
import os
import re
import stat
import zlib

from ._errors import CorpusFormatError

__all__ = ["check_controls", "check_encoding", "check_input_kind", "check_text_controls",
           "decode", "detect_newline", "file_kind", "find_control", "read_bytes", "text_lines"]

#: Longest line (in characters) :func:`text_lines` reads.
MAX_LINE_CHARS = 1 << 20

_BAD_CRLF = re.compile(r"(?<!\r)\n|\r(?!\n)")


def read_bytes(path, path_str: str) -> bytes:
    """The bytes of a file, through gzip when its name ends in ``.gz``.

    Read once (a pipe such as ``<(zcat f)`` works); a device such as
    ``/dev/zero`` is refused before anything is read.
    """
    check_input_kind(path, path_str)
    opener = gzip.open if path_str.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            return f.read()
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise CorpusFormatError(path_str, None, f"not a valid gzip file ({exc})") from None
    except MemoryError:
        raise CorpusFormatError(path_str, None, "too large to read into memory") from None


def text_lines(path, path_str: str, encoding: str = "utf-8", max_chars: int = MAX_LINE_CHARS,
               gzipped=None):
    """``(number, line)`` of a text file read as a stream, without the line ends.

    As :func:`read_bytes` and :func:`decode` read it (``.gz``, or ``gzipped``,
    through gzip, ``.xz`` through lzma, strict decoding, a byte order mark dropped,
    control characters refused), but line by line: a line longer than ``max_chars``
    characters is refused before it is read whole.  Errors are
    :class:`CorpusFormatError` naming the file and the line.
    """
    import io

    check_input_kind(path, path_str)
    check_encoding(encoding)
    utf8 = encoding.lower().replace("_", "-") in _UTF8
    n = 0
    try:
        gzipped = path_str.endswith(".gz") if gzipped is None else gzipped
        opener = gzip.open if gzipped else lzma.open if path_str.endswith(".xz") else open
        with opener(path, "rb") as raw, \
                io.TextIOWrapper(raw, "utf-8-sig" if utf8 else encoding,
                                 errors="surrogateescape") as fh:
            while line := fh.readline(max_chars + 1):
                n += 1
                line = line.removesuffix("\n")
                if len(line) > max_chars:
                    raise CorpusFormatError(path_str, n, f"a line of more than {max_chars:,} "
                                                         "characters (not a text file?)")
                bad = _CONTROLS.search(line) or _ESCAPED.search(line)
                if bad is not None and bad.group() >= "\udc80":
                    raise CorpusFormatError(path_str, n, f"cannot decode byte "
                                            f"{ord(bad.group()) - 0xdc00:#04x} as {encoding}")
                if bad is not None:
                    raise CorpusFormatError(path_str, n, f"control character {bad.group()!r} "
                                            "in the text (a binary or corrupt file?)")
                yield n, line
    except (gzip.BadGzipFile, EOFError, zlib.error, lzma.LZMAError) as exc:
        kind = "xz" if path_str.endswith(".xz") and not gzipped else "gzip"
        raise CorpusFormatError(path_str, None, f"not a valid {kind} file ({exc})") from None


def check_input_kind(path, path_str: str) -> None:
    """Refuse a path that exists but is neither a regular file nor a pipe.

    A directory raises :class:`IsADirectoryError`; a character or block
    device (``/dev/zero``, a terminal) or a socket a
    :class:`CorpusFormatError`.  A missing path is left to ``open``.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path_str)
    raise CorpusFormatError(path_str, None, f"not a regular file or pipe ({file_kind(mode)})")


def file_kind(mode) -> str:
    """What a path of this ``st_mode`` is, for messages (``"a character device"``...)."""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a file"


_UTF8 = ("utf-8", "utf8", "u8", "utf")
_BOM = b"\xef\xbb\xbf"


def check_encoding(encoding) -> None:
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str, got {type(encoding).__name__}")
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None


def decode(data: bytes, encoding: str, path, keep_bom=False) -> tuple[str, str]:
    """``(text, encoding)``; a UTF-8 byte order mark is dropped (encoding ``"utf-8-sig"``).

    A byte order mark is not text: kept, it would stick to the first token
    or hide a ``###MEDLINE`` line.  :func:`write_columns` writes it back.
    ``keep_bom=True`` keeps it as the character U+FEFF (brat's offsets count it).
    """
    check_encoding(encoding)
    if keep_bom:
        pass
    elif encoding.lower().replace("_", "-") in _UTF8:
        encoding = "utf-8-sig" if data.startswith(_BOM) else encoding
    elif encoding.lower().replace("_", "-") in ("utf-8-sig", "utf8-sig"):
        encoding = "utf-8-sig" if data.startswith(_BOM) else "utf-8"  # written back as read
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as exc:
        lineno = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.end]
        raise CorpusFormatError(
            path,
            lineno,
            f"cannot decode {bad!r} at byte offset {exc.start} as {encoding} ({exc.reason})",
        ) from None


# control characters other than TAB, LF and CR (which the readers handle): never text
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ESCAPED = re.compile("[\udc80-\udcff]")  # undecodable bytes, as surrogateescape keeps them


# control characters that are not whitespace (a tokenizer would glue them to a word)
_TEXT_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]")


def find_control(text: str):
    """``(index, character)`` of the first control character of ``text`` that is not
    whitespace (NUL, escape...), or None: never text, it would stick to a token."""
    bad = _TEXT_CONTROLS.search(text)
    return None if bad is None else (bad.start(), bad.group())


def check_text_controls(text: str, path, what: str = "", line=False) -> None:
    """Raise :class:`CorpusFormatError` (naming the line) for a control character in a text
    that is not whitespace; ``what`` (``"document 'd1': "``) prefixes the message.  ``line``:
    the file's line to name instead (a record's; None: none), by default the text's line."""
    found = find_control(text)
    if found is not None:
        i, c = found
        raise CorpusFormatError(path, text.count("\n", 0, i) + 1 if line is False else line,
                                f"{what}control character {c!r} at character {i} of the text "
                                "(a binary or corrupt file?)")


def check_controls(text: str, path: str, sep: str = "\t") -> None:
    """Refuse NUL and other control characters (one scan of the whole text)."""
    for bad in _CONTROLS.finditer(text):
        if bad.group() in sep:
            continue
        lineno = text.count("\n", 0, bad.start()) + 1
        raise CorpusFormatError(
            path,
            lineno,
            f"control character {bad.group()!r} in the text (a binary or corrupt file?)",
        )


def detect_newline(text: str, path: str) -> str:
    """``"\\r\\n"`` if the first line ends so, else ``"\\n"``; reject mixtures."""
    first = text.find("\n")
    if first > 0 and text[first - 1] == "\r":
        bad = _BAD_CRLF.search(text)
        if bad is not None:
            lineno = text.count("\n", 0, bad.start()) + 1
            what = "\\n without \\r" if bad.group() == "\n" else "\\r without \\n"
            raise CorpusFormatError(
                path,
                lineno,
                f"mixed line endings: the file uses \\r\\n (from its first line) but this "
                f"line has a {what}",
            )
        return "\r\n"
    pos = text.find("\r")
    if pos != -1:
        lineno = text.count("\n", 0, pos) + 1
        raise CorpusFormatError(
            path,
            lineno,
            "carriage return (\\r) in a file with \\n line endings (from its first "
            "line): mixed or old Mac line endings are not supported",
        )
    return "\n"
