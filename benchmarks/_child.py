"""Run one benchmark measurement in a fresh Python process (so its peak RSS is its own)."""

import json
import subprocess
import sys


def run_child(cmd, what):
    """Run ``cmd``; return the JSON object on the last line of its stdout.

    On failure the child's stderr is shown and the benchmark stops, naming ``what``.
    """
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"{what} failed with exit code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])
