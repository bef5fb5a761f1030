"""A new user's first minutes: fresh venv, ``pip install``, ``skbioner demo``, ``skbioner tag``.

    python benchmarks/archive/cold_start.py                      # this checkout
    python benchmarks/archive/cold_start.py --checkout ../main   # another checkout
    python benchmarks/archive/cold_start.py --keep               # keep the temporary venv

What it does, in a temporary directory removed at the end:

1. ``python -m venv`` (a fresh environment, no ``--system-site-packages`` unless asked), then
   ``pip install`` of a clean copy of CHECKOUT (not editable; pip's own download cache and
   configured indexes are used as they are, so the download time is not what is measured
   -- the install time is recorded anyway).  No numba cache file may exist in the installed
   package afterwards.
2. The commands then run as a new user runs them: from an empty working directory, with
   ``HOME`` and ``XDG_CACHE_HOME`` pointing to empty directories, ``PYTHONPATH`` and
   ``NUMBA_CACHE_DIR`` removed (numba caches where it would for that user: the installed
   package's ``__pycache__``), in this order:

   - ``skbioner demo`` (fresh: every kernel it uses compiles), ``skbioner demo`` (second);
   - ``skbioner tag SMALL -o OUT`` (the first after the demo: the bundled model, kernels the
     demo did not need), then ``--warm`` more times (warm: the median is the reference);
   - unless ``--no-tag-alone``: the first ``skbioner tag`` with an empty cache
     (``NUMBA_CACHE_DIR`` a fresh directory: a user who skips the demo).

   SMALL is 20 sentences of the bundled JNLPBA test sample written as plain text (or
   ``--text FILE``).

Each command is timed wall-clock and in CPU seconds (user + system of the child: much
less sensitive to other jobs on the machine than the wall time); the longest stretch in
which the command printed nothing (``max_silence_s``: stdout and stderr, a progress bar's
updates count) shows whether the user is left waiting without a sign of life.  The load
average is recorded before and after every command.  Targets (issue 27): the fresh demo
within 30 s, the first tag within 2x a warm one.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEMO_TARGET_S = 30.0
TAG_RATIO_TARGET = 2.0
SAMPLE = "skbioner/datasets/data/jnlpba-test-sample.iob2.gz"


def _load():
    return [round(x, 2) for x in os.getloadavg()]


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(cmd, env, cwd, log=None):
    """Run ``cmd``; return wall and CPU seconds, the longest silence and the output.

    Output is read as it comes (both streams), each chunk time-stamped; the
    silences are the gaps between chunks, from the start to the end.
    """
    load_before = _load()
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    chunks = {"stdout": [], "stderr": []}
    last, silence, first = t0, 0.0, None
    open_streams = 2
    while open_streams:
        for key, _ in sel.select():
            data = os.read(key.fileobj.fileno(), 65536)
            now = time.perf_counter()
            if not data:
                sel.unregister(key.fileobj)
                open_streams -= 1
                continue
            chunks[key.data].append(data)
            silence = max(silence, now - last)
            first = now - t0 if first is None else first
            last = now
            if log is not None:
                log.write(data.decode("utf-8", "replace"))
                log.flush()
    sel.close()
    status = proc.wait()
    end = time.perf_counter()
    silence = max(silence, end - last)
    out = {k: b"".join(v).decode("utf-8", "replace") for k, v in chunks.items()}
    if status != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({status}):\n{out['stderr'][-2000:]}")
    return {"wall_s": round(end - t0, 2), "cpu_s": round(_children_cpu() - cpu0, 2),
            "max_silence_s": round(silence, 2),
            "first_output_s": None if first is None else round(first, 2),
            "load_before": load_before, "load_after": _load()}, out


def small_text(path, n_sentences=20):
    """The first ``n_sentences`` of the bundled test sample as plain text, one per line."""
    sentences, words = [], []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                if words:
                    sentences.append(" ".join(words))
                    words = []
                if len(sentences) == n_sentences:
                    break
            elif not line.startswith("###"):
                words.append(line.split("\t")[0])
    return "\n".join(sentences) + "\n"


def _cache_files(root):
    return [p for p in Path(root).rglob("*") if p.suffix in (".nbi", ".nbc")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parents[2]),
                        help="the skbioner checkout to install (default: this one)")
    parser.add_argument("--text", help="the file the tag runs tag (default: 20 sentences of "
                                       "the bundled test sample)")
    parser.add_argument("--warm", type=int, default=3, help="warm tag runs (median taken)")
    parser.add_argument("--no-tag-alone", action="store_true",
                        help="skip the first tag with an empty cache (no demo before it)")
    parser.add_argument("--system-site-packages", action="store_true",
                        help="let the venv see this Python's packages (when a fresh install "
                             "of the dependencies is impossible here; recorded in the result)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--verbose", action="store_true", help="echo the commands' output")
    args = parser.parse_args(argv)

    checkout = Path(args.checkout).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="skbioner-cold-start-"))
    log = sys.stderr if args.verbose else None
    result = {"benchmark": "cold_start", "checkout": str(checkout),
              "python": sys.version.split()[0], "cpu_count": os.cpu_count(),
              "system_site_packages": args.system_site_packages}
    try:
        venv = tmp / "venv"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", *(["--system-site-packages"]
                        if args.system_site_packages else []), str(venv)], check=True)
        result["venv_s"] = round(time.perf_counter() - t0, 2)
        py, cli = venv / "bin" / "python", venv / "bin" / "skbioner"
        base_env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV")}
        base_env["PATH"] = f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        # a clean copy: pip builds in the source tree (build/, *.egg-info) and a stale
        # build/ of an earlier run could slip files deleted since into the wheel
        source = tmp / "source"
        shutil.copytree(checkout, source, ignore=shutil.ignore_patterns(
            ".git", "build", "*.egg-info", "__pycache__", "*.nbi", "*.nbc", ".pytest_cache"))
        print(f"installing {checkout} (a copy) into {venv} ...", file=sys.stderr, flush=True)
        result["pip_install"], _ = run_timed(
            [str(py), "-m", "pip", "install", "--quiet", str(source)], base_env, str(tmp), log)
        site = Path(subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True, env=base_env).stdout.strip())
        package = site / "skbioner"
        if not package.is_dir():
            raise SystemExit(f"skbioner was not installed into {site}")
        stale = _cache_files(package)
        if stale:
            raise SystemExit(f"numba cache files came with the install: {stale[:3]}")

        home = tmp / "home"
        work = tmp / "work"
        home.mkdir()
        work.mkdir()
        env = {**base_env, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
        text = Path(args.text).resolve() if args.text else work / "small.txt"
        if not args.text:
            text.write_text(small_text(checkout / SAMPLE), encoding="utf-8")
        out = work / "out.jsonl"

        def step(name, cmd, environ=env):
            print(f"{name}: {' '.join(map(str, cmd))} ...", file=sys.stderr, flush=True)
            timing, output = run_timed(cmd, environ, str(work), log)
            print(f"{name}: {timing['wall_s']} s wall, {timing['cpu_s']} s CPU, longest "
                  f"silence {timing['max_silence_s']} s (load {timing['load_after']})",
                  file=sys.stderr, flush=True)
            result[name] = timing
            return output

        demo = step("demo_fresh", [str(cli), "demo"])
        result["demo_fresh"]["compile_note_shown"] = "compiling" in demo["stderr"]
        result["demo_fresh"]["stderr_lines"] = demo["stderr"].count("\n") + \
            demo["stderr"].count("\r")
        result["cache_files_after_demo"] = len(_cache_files(package))
        step("demo_second", [str(cli), "demo"])
        tag = [str(cli), "tag", str(text), "-o", str(out)]
        step("tag_first", tag)
        warm = []
        for i in range(args.warm):
            step(f"tag_warm_{i + 1}", tag)
            warm.append(result.pop(f"tag_warm_{i + 1}"))
        result["tag_warm"] = {
            "wall_s": round(statistics.median(w["wall_s"] for w in warm), 2),
            "cpu_s": round(statistics.median(w["cpu_s"] for w in warm), 2),
            "runs": warm}
        if not args.no_tag_alone:
            alone = {**env, "NUMBA_CACHE_DIR": str(tmp / "empty-numba-cache")}
            step("tag_alone_fresh", tag, alone)
        result["tagged_entities"] = sum(1 for line in out.read_text().splitlines()
                                        for _ in json.loads(line).get("entities", []))
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    fresh, warm = result["demo_fresh"], result["tag_warm"]
    result["ratios"] = {
        "demo_fresh_over_second_wall": round(fresh["wall_s"] / result["demo_second"]["wall_s"], 2),
        "demo_fresh_over_second_cpu": round(fresh["cpu_s"] / result["demo_second"]["cpu_s"], 2),
        "tag_first_over_warm_wall": round(result["tag_first"]["wall_s"] / warm["wall_s"], 2),
        "tag_first_over_warm_cpu": round(result["tag_first"]["cpu_s"] / warm["cpu_s"], 2),
    }
    if "tag_alone_fresh" in result:
        result["ratios"]["tag_alone_fresh_over_warm_wall"] = round(
            result["tag_alone_fresh"]["wall_s"] / warm["wall_s"], 2)
    result["targets"] = {
        "demo_fresh_s": DEMO_TARGET_S, "tag_first_over_warm": TAG_RATIO_TARGET,
        "demo_fresh_met": fresh["wall_s"] <= DEMO_TARGET_S,
        "tag_first_met": result["ratios"]["tag_first_over_warm_wall"] <= TAG_RATIO_TARGET,
        "pip_install_plus_demo_s": round(result["pip_install"]["wall_s"] + fresh["wall_s"], 2),
    }
    result["loadavg_end"] = _load()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
