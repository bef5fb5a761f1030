"""Gaps a user met in their second hour with the command line (issue 27, item 6)."""

import os
import subprocess
import sys

from skbioner.cli import main


def test_closed_stdout_pipe_exits_quietly(tmp_path):
    # `skbioner info --json | head -1`: the reader is gone before the output is written;
    # no traceback and no error line, the status a SIGPIPE death reports
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([sys.executable, "-m", "skbioner", "info", "--json"],
                           stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    assert r.stderr == ""
    assert r.returncode == 141


def test_convert_from_scheme_alone_writes_iob2(tmp_path):
    # --to-scheme's help gives IOB2 as its default: --from-scheme alone converts to it
    src, dst = tmp_path / "in.bies", tmp_path / "out.iob2"
    src.write_text("###MEDLINE:1\n\nIL-2\tB-protein\ngene\tE-protein\nin\tS-O\n"
                   "T\tS-cell_type\n\n")
    assert main(["convert", str(src), str(dst), "--from-scheme", "BIES"]) == 0
    assert dst.read_text() == ("###MEDLINE:1\n\nIL-2\tB-protein\ngene\tI-protein\nin\tO\n"
                               "T\tB-cell_type\n\n")
