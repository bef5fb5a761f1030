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
