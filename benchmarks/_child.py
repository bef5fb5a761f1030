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


def ratios_against(results, peer, quality):
    """Per model, speed and memory ratios against ``peer`` and the difference in ``quality``.

    Keys: ``train_speedup`` (when both have ``train_seconds``), ``tagging_speedup``,
    ``rss_ratio`` and ``<quality>_delta``; ``{}`` when ``peer`` did not run.
    """
    if peer not in results:
        return {}
    base = results[peer]
    out = {}
    for name, res in results.items():
        if name == peer:
            continue
        r = out[name] = {
            "tagging_speedup": res["tag_tokens_per_second"] / base["tag_tokens_per_second"],
            "rss_ratio": res["peak_rss_mb"] / base["peak_rss_mb"],
            f"{quality}_delta": res[quality] - base[quality],
        }
        if "train_seconds" in res and "train_seconds" in base:
            r["train_speedup"] = base["train_seconds"] / res["train_seconds"]
    return out
