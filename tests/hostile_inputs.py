"""Issues 22 and 37's hostile sweeps, replayed: every case, what should happen, what happens.

Issue 37's cases (items ``r3.N``) bound every size read from a file: counts and
offsets of crafted model files, sparse members whatever their names, class
tables, unlabeled text, standard input.

Each case gives the command line (or the library) a hostile or careless input
-- a crafted model file, an output path that is a device, a FIFO or a
symbolic link, a BioC file with an external entity or an absurd offset, a
PubTator line with a malformed offset, JSON nested 50,000 deep, a NUL in a
text, an unreadable file in a batch... -- and checks the outcome: the exit
status, a one-line error or warning naming the file (line, document, field),
what was written.  Around every case the script also checks that nothing was
written outside the case's output directory: the inputs are unchanged, the
files the attacks aim at (a ``.pth`` file, a marker, a victim directory) do
not exist, no temporary file is left (the commands run with a private
``TMPDIR``) and the site-packages directories hold what they held.

Usage::

    python tests/hostile_inputs.py [--keep DIR] [--only SUBSTRING]

prints a table (case, expected, observed, pass) and, as its last line, one
JSON object: ``{"cases": N, "passed": N, "failed": [...], "seconds": S}``.
The exit status is 0 when every case passes.  ``tests/cli/test_hostile_inputs.py``
runs it in CI.  Most cases run the command line in this process
(``skbioner.cli.main``); those about signals, standard output and worker
processes run it as a subprocess.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import signal
import site
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TRAIN = "###MEDLINE:1\n\n" + "".join(
    f"The\tO\n{g}\tB-DNA\ngene\tI-DNA\nin\tO\n{c}\tB-cell_type\ncells\tI-cell_type\n.\tO\n\n"
    for g in ("IL-2", "p53", "TNF", "c-myc") for c in ("T", "B", "HeLa")
)
TEXT = "The IL-2 gene in T cells .\nThe p53 gene in HeLa cells ."
PAYLOAD = "import os; os.system('touch /tmp/skbioner-pwned')\n"

CASES = []


def case(item, expected):
    """Register ``function(ws) -> (observed, ok)`` as a case of issue item ``item``."""
    def register(function):
        CASES.append((item, function.__name__, expected, function))
        return function
    return register


# -- the workspace: inputs, an output directory, the places attacks aim at ------------------


def _digest(directory):
    out = {}
    for path in sorted(Path(directory).rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as fh:  # not Path.read_bytes, which a case replaces
                out[str(path)] = hashlib.sha256(fh.read()).hexdigest()
        else:
            out[str(path)] = "link" if path.is_symlink() else "dir" if path.is_dir() else "other"
    return out


def _site_listing():
    dirs = [*site.getsitepackages(), site.getusersitepackages()]
    return {d: sorted(os.listdir(d)) for d in dirs if os.path.isdir(d)}


class Workspace:
    """A scratch tree: ``inputs/`` (what commands read), ``out/`` (the only place they may
    write), ``victim/`` (where the attacks aim), ``tmp/`` (the commands' TMPDIR)."""

    def __init__(self, root):
        self.root = Path(root)
        for name in ("inputs", "out", "victim", "tmp"):
            (self.root / name).mkdir(parents=True, exist_ok=True)
        self.inputs, self.out = self.root / "inputs", self.root / "out"
        self.victim, self.tmp = self.root / "victim", self.root / "tmp"
        self.train = self.write("train.iob2", TRAIN)
        self.model = self.inputs / "model.skops"
        status, _, err = self.cli("train", "-q", "--train", self.train, "-o", self.model)
        assert status == 0, err

    def write(self, name, content):
        path = self.inputs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def fresh_out(self, name):
        """A path in ``out/`` (the case's output)."""
        return self.out / name

    def cli(self, *args):
        """``(status, stdout, stderr)`` of the command line run in this process."""
        from skbioner.cli import main

        out, err = io.TextIOWrapper(io.BytesIO(), "utf-8"), io.TextIOWrapper(io.BytesIO(),
                                                                              "utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in args])
            except SystemExit as exc:  # argparse
                status = exc.code
        out.flush()
        err.flush()
        return (status, out.buffer.getvalue().decode("utf-8", "replace"),
                err.buffer.getvalue().decode("utf-8", "replace"))

    def sub(self, *args, stdin=None, timeout=300, env=None, **kwargs):
        """``subprocess.run`` of ``python -m skbioner ARGS`` with the workspace's TMPDIR
        (and the variables of ``env``)."""
        env = dict(os.environ, TMPDIR=str(self.tmp),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                            os.environ.get("PYTHONPATH")])),
                   **(env or {}))
        return subprocess.run([sys.executable, "-m", "skbioner", *map(str, args)], env=env,
                              stdin=stdin, capture_output=True, timeout=timeout, cwd=self.root,
                              **kwargs)

    @contextlib.contextmanager
    def watch(self):
        """Check that the block writes nothing outside ``out/``; yields the list of problems."""
        problems = []
        before = (_digest(self.inputs), _site_listing())
        yield problems
        if _digest(self.inputs) != before[0]:
            problems.append("inputs changed")
        if _site_listing() != before[1]:
            problems.append("site-packages changed")
        for where in (self.victim, self.tmp):
            if any(where.iterdir()):
                problems.append(f"written in {where.name}/: {sorted(os.listdir(where))}")
        litter = [p.name for p in self.out.rglob(".*.tmp")]
        if litter:
            problems.append(f"temporary files left: {litter}")
        if Path("/tmp/skbioner-pwned").exists():
            problems.append("the payload ran")


def one_line_error(err, command):
    lines = err.strip().splitlines()
    return (len(lines) == 1 and lines[0].startswith(f"skbioner {command}: error: ")
            and "Traceback" not in err)


def _last(err):
    return err.strip().splitlines()[-1] if err.strip() else ""


# -- item 1: model files run nothing ----------------------------------------------------------


def _function_transformer_model(func, kw_args):
    """A .skops file: a pipeline whose first step is a FunctionTransformer calling ``func``."""
    import skops.io as sio
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    from skbioner.models import MajorityTagger

    pipe = Pipeline([("gadget", FunctionTransformer(func, kw_args=kw_args, validate=False)),
                     ("model", MajorityTagger().fit([["IL-2"]], [["B-DNA"]]))])
    return sio.dumps(pipe)


def _refused(ws, name, data, *needles):
    path = ws.write(name, data)
    with ws.watch() as problems:
        status, _, err = ws.cli("predict", path, ws.train, "-o", ws.fresh_out("p.iob2"))
    ok = (status == 1 and one_line_error(err, "predict") and "refused" in err
          and all(n in err for n in needles) and not problems
          and not ws.fresh_out("p.iob2").exists())
    return _last(err)[:160] + (f" {problems}" if problems else ""), ok


@case(1, "refused naming FunctionTransformer and atomic_write_utf8; no .pth written")
def model_function_transformer_writes_pth(ws):
    from skbioner.io._atomic import atomic_write_utf8  # private: a gadget

    data = _function_transformer_model(atomic_write_utf8,
                                       {"text": PAYLOAD, "path": str(ws.victim / "evil.pth")})
    return _refused(ws, "gadget-write.skops", data, "FunctionTransformer",
                    "atomic_write_utf8 (a function reference)")


@case(1, "refused naming skbioner.cli._main.main; the command it holds never runs")
def model_runs_the_cli(ws):
    from skbioner.cli import main

    data = _function_transformer_model(
        main, {"argv": ["convert", str(ws.train), str(ws.victim / "copy.jsonl"), "--to",
                        "jsonl"]})
    return _refused(ws, "gadget-cli.skops", data, "skbioner.cli._main.main")


@case(1, "refused naming skbioner.io._models.save_model")
def model_overwrites_a_file(ws):
    from skbioner.io import save_model

    data = _function_transformer_model(save_model, {"path": str(ws.victim / "over.skops")})
    return _refused(ws, "gadget-save.skops", data, "save_model (a function reference)")


def skops_file(node, members=()):
    """A crafted .skops file: ``node`` as its whole object, ``members`` as ``(name, bytes)``."""
    import skops.io as sio

    with zipfile.ZipFile(io.BytesIO(sio.dumps(0))) as z:  # this skops's protocol
        base = json.loads(z.read("schema.json"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("schema.json", json.dumps(dict(node, protocol=base["protocol"],
                                                  _skops_version=base["_skops_version"])))
        for name, data in members:
            z.writestr(name, data)
    return buffer.getvalue()


def _json_node(value):
    return {"__class__": "str", "__module__": "builtins", "__loader__": "JsonNode",
            "content": json.dumps(value), "is_json": True}


@case(1, "a list node whose 'type' is subprocess.call: refused, nothing runs")
def model_list_node_calls_subprocess(ws):
    node = {"__class__": "call", "__module__": "subprocess", "__loader__": "ListNode",
            "content": [_json_node("touch"), _json_node(str(ws.victim / "marker"))]}
    return _refused(ws, "gadget-list.skops", skops_file(node), "subprocess.call")


@case(1, "a skbioner class whose constructor makes directories: refused")
def model_constructs_a_writer(ws):
    node = {"__class__": "_BratWriter", "__module__": "skbioner.tagging._writers",
            "__loader__": "ConstructorFromReduceNode",
            "content": {"__class__": "tuple", "__module__": "builtins",
                        "__loader__": "TupleNode",
                        "content": [_json_node(str(ws.victim / "made" / "by" / "model"))]}}
    return _refused(ws, "gadget-mkdir.skops", skops_file(node), "_BratWriter")


def _bomb(size):
    """A .skops whose one array member inflates to ``size`` bytes (zeros), deflated."""
    from numpy.lib import format as npy

    header = io.BytesIO()
    npy.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                        "shape": ((size - 128) // 8,)})
    node = {"__class__": "ndarray", "__module__": "numpy", "__loader__": "NdArrayNode",
            "type": "numpy", "file": "bomb.npy"}
    schema = json.loads(zipfile.ZipFile(io.BytesIO(skops_file(node))).read("schema.json"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("schema.json", json.dumps(schema))
        with z.open("bomb.npy", "w", force_zip64=True) as f:
            f.write(header.getvalue())  # 128 bytes
            chunk = bytes(1 << 20)
            left = (size - 128) // 8 * 8
            while left > 0:
                f.write(chunk[:min(left, len(chunk))])
                left -= len(chunk)
    return buffer.getvalue()


@case(1, "a 300 MB array deflated into a small file: refused before inflating")
def model_zip_bomb(ws):
    data = _bomb(300 * 2**20)
    t0 = time.perf_counter()
    observed, ok = _refused(ws, "bomb.skops", data, "would inflate")
    seconds = time.perf_counter() - t0
    return f"{observed} ({len(data):,}-byte file, refused in {seconds:.2f} s)", ok and seconds < 30


@case(1, "an array header smaller than its member: refused (declared shapes checked)")
def model_shape_mismatch(ws):
    data = _bomb(4 * 2**20)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        member = z.read("bomb.npy")
    from numpy.lib import format as npy

    header = io.BytesIO()
    npy.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10,)})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("schema.json", zipfile.ZipFile(io.BytesIO(data)).read("schema.json"))
        z.writestr("bomb.npy", header.getvalue() + member[128:])
    return _refused(ws, "mismatch.skops", buffer.getvalue(), "its header declares")


@case(1, "a text file starting with 'x' is not taken for a compressed pickle")
def model_text_is_not_a_pickle(ws):
    path = ws.write("notes.skops", "xylophone\n")
    with ws.watch() as problems:
        status, _, err = ws.cli("predict", path, ws.train, "-o", ws.fresh_out("p.iob2"))
    ok = (status == 1 and one_line_error(err, "predict") and "not a model file" in err
          and "pickle" not in err.split("(")[0] and "--allow-pickle" not in err and not problems)
    return _last(err)[:160], ok


# -- item 2: outputs never replace special files ---------------------------------------------


def _predict_to(ws, out, *, sub=False):
    if sub:
        r = ws.sub("predict", ws.model, ws.train, "-o", out)
        return r.returncode, r.stdout.decode(), r.stderr.decode()
    return ws.cli("predict", ws.model, ws.train, "-o", out)


@case(2, "-o /dev/null: written in place, /dev/null stays a character device")
def output_dev_null(ws):
    import stat

    with ws.watch() as problems:
        status, _, err = _predict_to(ws, "/dev/null")
    chr_dev = stat.S_ISCHR(os.stat("/dev/null").st_mode)
    return f"exit {status}, /dev/null a character device: {chr_dev}", (
        status == 0 and chr_dev and not problems)


@case(2, "-o FIFO: the reader gets the output, the FIFO stays a FIFO")
def output_fifo(ws):
    import stat

    fifo = ws.fresh_out("pipe")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(Path(fifo).read_bytes()))
    reader.start()
    with ws.watch() as problems:
        status, _, err = _predict_to(ws, fifo)
    reader.join(60)
    is_fifo = stat.S_ISFIFO(os.stat(fifo).st_mode)
    n = got[0].count(b"\n") if got else 0
    os.unlink(fifo)
    return f"exit {status}, reader got {n} lines, still a FIFO: {is_fifo}", (
        status == 0 and n == TRAIN.count("\n") and is_fifo and not problems)


@case(2, "-o SYMLINK: the file it points to is replaced, the link stays a link")
def output_symlink(ws):
    target = ws.fresh_out("real.iob2")
    target.write_text("old\n")
    link = ws.fresh_out("link.iob2")
    link.symlink_to(target)
    with ws.watch() as problems:
        status, _, err = _predict_to(ws, link)
    ok = status == 0 and link.is_symlink() and target.read_text().startswith("###MEDLINE")
    return f"exit {status}, link kept: {link.is_symlink()}, target rewritten: {ok}", (
        ok and not problems)


@case(2, "-o -: the output goes to standard output")
def output_dash(ws):
    with ws.watch() as problems:
        status, out, err = _predict_to(ws, "-")
    return f"exit {status}, {out.count(chr(10))} lines on stdout", (
        status == 0 and out.startswith("###MEDLINE:1") and not problems
        and not (ws.root / "-").exists())


@case(2, "-o /dev/stdout: written to standard output, /dev/stdout stays a link")
def output_dev_stdout(ws):
    with ws.watch() as problems:
        status, out, err = _predict_to(ws, "/dev/stdout", sub=True)
    link = os.path.islink("/dev/stdout")
    return f"exit {status}, {out.count(chr(10))} lines on stdout, /dev/stdout a link: {link}", (
        status == 0 and out.startswith("###MEDLINE:1") and link and not problems)


@case(2, "-o DIRECTORY: one-line error, nothing written")
def output_directory(ws):
    d = ws.fresh_out("a-dir")
    d.mkdir()
    with ws.watch() as problems:
        status, _, err = _predict_to(ws, d)
    return _last(err)[:160], (status == 1 and one_line_error(err, "predict") and not problems
                              and not any(d.iterdir()))


# -- item 3: no external entities ------------------------------------------------------------


@case(3, "BioC XML with an external entity: refused, the file is never read")
def bioc_external_entity(ws):
    secret = ws.write("secret.txt", "TOP-SECRET\n")
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE collection [<!ENTITY x SYSTEM '
           f'"file://{secret}">]>\n<collection><source>s</source><document><id>1</id>'
           "<passage><offset>0</offset><text>IL-2 &x; gene</text></passage></document>"
           "</collection>\n")
    path = ws.write("xxe.xml", xml)
    out = ws.fresh_out("xxe.jsonl")
    with ws.watch() as problems:
        status, _, err = ws.cli("convert", path, out)
    leaked = out.exists() and "TOP-SECRET" in out.read_text()
    return _last(err)[:160], (status == 1 and one_line_error(err, "convert")
                              and "declares entities" in err and not leaked and not problems)


# -- item 4: PubTator offsets ----------------------------------------------------------------


@case(4, "PubTator entity lines with offsets '9 ', '2O', '-1', '٣': errors naming the line")
def pubtator_malformed_offsets(ws):
    results = []
    for k, bad in enumerate(("9 ", "2O", "-1", "\u0663")):
        text = ("1|t|IL-2 gene expression\n1|a|in T cells.\n"
                f"1\t0\t{bad}\tIL-2 gene\tDNA\t-\n1\t26\t33\tT cells\tcell_type\t-\n\n")
        path = ws.write(f"bad{k}.pubtator", text)
        with ws.watch() as problems:
            status, _, err = ws.cli("convert", path, ws.fresh_out(f"p{k}.jsonl"))
        results.append(status == 1 and one_line_error(err, "convert") and f"{path}:3:" in err
                       and not problems)
    return f"{sum(results)}/4 refused naming line 3 ({_last(err)[-70:]})", all(results)


# -- item 5: JSON nesting --------------------------------------------------------------------


@case(5, "a JSONL record nested 50,000 deep: reported, the records around it tagged")
def jsonl_deep_record(ws):
    lines = [json.dumps({"id": "a", "text": TEXT}),
             '{"id": "deep", "text": ' + "[" * 50000 + "]" * 50000 + "}",
             json.dumps({"id": "b", "text": TEXT})]
    path = ws.write("deep.jsonl", "\n".join(lines) + "\n")
    out = ws.fresh_out("deep-out.jsonl")
    with ws.watch() as problems:
        status, _, err = ws.cli("tag", "-m", ws.model, path, "-o", out, "--progress", "never")
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()] if out.exists() else []
    return f"exit {status}, written {ids}; {err.splitlines()[0][:100]}", (
        status == 1 and ids == ["a", "b"] and f"{path}:2" in err and "nested" in err
        and "Traceback" not in err and not problems)


@case(5, "BioC JSON nested 50,000 deep: one-line error (convert, train, evaluate)")
def bioc_json_deep(ws):
    path = ws.write("deep.json", '{"documents": ' + "[" * 50000 + "]" * 50000 + "}")
    ok = []
    for args, command in ((("convert", path, ws.fresh_out("d.jsonl")), "convert"),
                          (("train", "--train", path, "-o", ws.fresh_out("d.skops")), "train"),
                          (("evaluate", path, path), "evaluate")):
        with ws.watch() as problems:
            status, _, err = ws.cli(*args)
        ok.append(status == 1 and one_line_error(err, command) and "nested" in err
                  and not problems)
    return f"{sum(ok)}/3 one-line errors ({_last(err)[-80:]})", all(ok)


# -- item 6: resources -----------------------------------------------------------------------


def _bioc_xml(offset):
    return ("<collection><source>s</source><document><id>1</id><passage><offset>"
            f"{offset}</offset><text>IL-2 gene</text></passage></document></collection>")


@case(6, "a 200-byte BioC XML with passage offset 3e8: refused at once, nothing padded")
def bioc_huge_offset(ws):
    path = ws.write("far.xml", _bioc_xml(300_000_000))
    t0 = time.perf_counter()
    with ws.watch() as problems:
        status, _, err = ws.cli("convert", path, ws.fresh_out("far.jsonl"))
    seconds = time.perf_counter() - t0
    return f"{_last(err)[:120]} ({seconds:.2f} s)", (
        status == 1 and one_line_error(err, "convert") and "filler characters" in err
        and seconds < 10 and not problems and not ws.fresh_out("far.jsonl").exists())


@case(6, "--n-jobs 1000: capped at the machine's cores, with a note")
def n_jobs_capped(ws):
    src = ws.write("docs/a.txt", TEXT)
    from joblib import cpu_count

    with ws.watch() as problems:
        r = ws.sub("tag", "-m", ws.model, src.parent, "-o", ws.fresh_out("nj.jsonl"),
                   "--n-jobs", "1000", "--progress", "never")
    err = r.stderr.decode()
    return err.splitlines()[0][:120], (
        r.returncode == 0 and f"{cpu_count()} worker processes" in err and not problems)


@case(6, "a 2 MB one-line document: tagged in pieces (memory per call bounded)")
def long_document_in_pieces(ws):
    from skbioner.tagging import _tagger

    calls = []
    real = _tagger._predicted_spans

    def counting(model, sentences, *args):
        calls.append(sum(len(s) for s in sentences))
        return real(model, sentences, *args)

    text = " ".join([TEXT.replace("\n", " ")] * 40_000)  # ~2.2 MB, ~520,000 tokens
    path = ws.write("long.jsonl", json.dumps({"id": "long", "text": text}) + "\n")
    _tagger._predicted_spans = counting
    try:
        with ws.watch() as problems:
            status, _, err = ws.cli("tag", "-m", ws.model, path, "-o", ws.fresh_out("l.jsonl"),
                                    "--progress", "never", "--no-confidence")
    finally:
        _tagger._predicted_spans = real
    return f"exit {status}: {len(calls)} predict calls of at most {max(calls, default=0):,} " \
           "tokens", (status == 0 and len(calls) > 1
                      and max(calls) <= _tagger.MAX_TOKENS_PER_CALL and not problems)


# -- item 7: one-line errors naming file, line or document and field ---------------------------


@case(7, "BioC offset 1e20: one-line error naming the line (was OverflowError)")
def bioc_offset_overflow(ws):
    path = ws.write("overflow.xml", _bioc_xml(10**20))
    with ws.watch() as problems:
        status, _, err = ws.cli("convert", path, ws.fresh_out("o.jsonl"))
    return _last(err)[:160], (status == 1 and one_line_error(err, "convert")
                              and f"{path}:1:" in err and not problems)


@case(7, "BioC JSON infons not an object: one-line error naming document and field")
def bioc_json_infons(ws):
    doc = {"id": "d1", "passages": [{"offset": 0, "text": "IL-2", "annotations": [
        {"id": "a", "infons": ["type", "DNA"], "text": "IL-2",
         "locations": [{"offset": 0, "length": 4}]}]}]}
    path = ws.write("infons.json", json.dumps({"documents": [doc]}))
    with ws.watch() as problems:
        status, _, err = ws.cli("convert", path, ws.fresh_out("i.jsonl"))
    return _last(err)[:160], (status == 1 and one_line_error(err, "convert") and "'d1'" in err
                              and "'infons'" in err and not problems)


@case(7, "BioC JSON offset '12' (a string): names document and field; integer ids are read")
def bioc_json_offsets_and_ids(ws):
    doc = {"id": 5, "passages": [{"offset": "12", "text": "IL-2"}]}
    path = ws.write("offsets.json", json.dumps([doc]))
    with ws.watch() as problems:
        status, _, err = ws.cli("convert", path, ws.fresh_out("x.jsonl"))
    ok = (status == 1 and one_line_error(err, "convert") and "document 1 (5)" in err
          and "'offset'" in err and "'12'" in err)
    good = ws.write("intid.json", json.dumps([{"id": 5, "passages": [{"offset": 0,
                                                                      "text": "IL-2"}]}]))
    with ws.watch() as more:
        status2, _, _ = ws.cli("convert", good, ws.fresh_out("y.jsonl"))
    read = json.loads(ws.fresh_out("y.jsonl").read_text())["id"] if status2 == 0 else None
    return f"{_last(err)[:120]}; id 5 read as {read!r}", (
        ok and read == "5" and not problems and not more)


@case(7, "a label outside IOB2 in train: the hint names CLI options, not scheme=None")
def cli_hint_names_options(ws):
    path = ws.write("iobes.iob2", "The\tO\nIL-2\tS-DNA\n\n")
    with ws.watch() as problems:
        status, _, err = ws.cli("train", "--train", path, "-o", ws.fresh_out("h.skops"))
    return _last(err)[-150:], (status == 1 and one_line_error(err, "train")
                               and "scheme=None" not in err and "--from-scheme" in err
                               and not problems)


@case(7, "-m /dev/stdin --n-jobs 2: the model is read once, the workers get its content")
def model_from_stdin_in_parallel(ws):
    src = ws.write("stdin-docs/a.txt", TEXT)
    (src.parent / "b.txt").write_text(TEXT)
    with ws.watch() as problems, open(ws.model, "rb") as stdin:
        r = ws.sub("tag", "-m", "/dev/stdin", src.parent, "-o", ws.fresh_out("s.jsonl"),
                   "--n-jobs", "2", "--progress", "never", stdin=stdin)
    lines = ws.fresh_out("s.jsonl").read_text().splitlines() \
        if ws.fresh_out("s.jsonl").exists() else []
    return f"exit {r.returncode}, {len(lines)} documents: {_last(r.stderr.decode())[:80]}", (
        r.returncode == 0 and len(lines) == 2 and not problems)


# -- item 8: no lost work, no litter ---------------------------------------------------------


@case(8, "train -o MISSING_DIR/m.skops: refused before training")
def train_into_missing_directory(ws):
    with ws.watch() as problems:
        t0 = time.perf_counter()
        status, _, err = ws.cli("train", "--train", ws.train, "--model", "crfsuite", "-o",
                                ws.fresh_out("no/such/dir/m.skops"))
        seconds = time.perf_counter() - t0
    return f"{_last(err)[:120]} ({seconds:.1f} s)", (
        status == 1 and one_line_error(err, "train") and "No such file or directory" in err
        and "model: training" not in err and not problems)


@case(8, "SIGTERM while train / predict / convert write: exit 143, no temporary file left")
def sigterm_leaves_no_temp_file(ws):
    from skbioner.io import _atomic

    real = _atomic.os.fsync

    def terminated(fd):  # the temporary file exists and is written: SIGTERM arrives now
        os.kill(os.getpid(), signal.SIGTERM)
        return real(fd)

    observed, ok = [], []
    for args in (("train", "-q", "--train", ws.train, "--model", "majority", "-o",
                  ws.fresh_out("t.skops")),
                 ("predict", ws.model, ws.train, "-o", ws.fresh_out("t.iob2")),
                 ("convert", ws.train, ws.fresh_out("t.jsonl"))):
        _atomic.os.fsync = terminated
        try:
            with ws.watch() as problems:
                status, _, err = ws.cli(*args)
        finally:
            _atomic.os.fsync = real
        written = ws.fresh_out(Path(str(args[-1])).name).exists()
        ok.append(status == 143 and not written and "Traceback" not in err and not problems)
        observed.append(f"{args[0]}: exit {status}, output written: {written}")
    return "; ".join(observed), all(ok)


# -- item 9: silent nonsense -----------------------------------------------------------------


@case(9, "NUL in a raw text: that document reported, the others tagged")
def nul_in_raw_text(ws):
    src = ws.inputs / "nul-docs"
    src.mkdir()
    (src / "a.txt").write_text(TEXT)
    (src / "b.txt").write_text("The IL-2\x00 gene .")
    (src / "c.txt").write_text(TEXT)
    out = ws.fresh_out("nul.iob2")
    with ws.watch() as problems:
        status, _, err = ws.cli("tag", "-m", ws.model, src, "-o", out, "--output-format", "iob2",
                                "--progress", "never")
    written = out.read_text() if out.exists() else ""
    return err.splitlines()[0][:150], (
        status == 1 and "control character '\\x00'" in err and "\x00" not in written
        and "###MEDLINE:a" in written and "###MEDLINE:c" in written and not problems)


@case(9, "evaluate: a label 'B-prot\\0ein' is an error naming the line, not a class")
def nul_in_labels(ws):
    gold = ws.write("gold.iob2", "IL-2\tB-protein\n\n")
    pred = ws.write("pred.iob2", "IL-2\tB-prot\x00ein\n\n")
    with ws.watch() as problems:
        status, _, err = ws.cli("evaluate", gold, pred)
    return _last(err)[:150], (status == 1 and one_line_error(err, "evaluate")
                              and f"{pred}:1:" in err and not problems)


@case(9, "training labels all O: a warning that the model will tag nothing")
def all_o_training(ws):
    path = ws.write("all-o.iob2", "The\tO\ngene\tO\n\n")
    with ws.watch() as problems:
        status, _, err = ws.cli("train", "-q", "--train", path, "--model", "majority", "-o",
                                ws.fresh_out("o.skops"))
    return err.strip()[:150], (status == 0 and "warning" in err and "no entity" in err
                               and not problems)


# -- item 10: batches and terminals ----------------------------------------------------------


def _three_documents(ws, name):
    """A directory of inputs ``a.txt``, ``b.txt``, ``c.txt``."""
    src = ws.inputs / name
    src.mkdir()
    for stem in ("a", "b", "c"):
        (src / f"{stem}.txt").write_text(TEXT)
    return src


@case(10, "one unreadable file in a tag batch: reported, the other documents written")
def unreadable_file_in_batch(ws):
    src = _three_documents(ws, "perm-docs")
    real = Path.read_bytes

    def read_bytes(self):  # as `chmod 000` would, also when running as root
        if self == src / "b.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    out = ws.fresh_out("perm")
    Path.read_bytes = read_bytes
    try:
        with ws.watch() as problems:
            status, _, err = ws.cli("tag", "-m", ws.model, src, "-o", out, "--output-format",
                                    "brat", "--progress", "never")
    finally:
        Path.read_bytes = real
    names = sorted(p.name for p in out.iterdir()) if out.exists() else []
    return f"exit {status}, wrote {names}; {err.splitlines()[0][-60:]}", (
        status == 1 and names == ["a.ann", "a.txt", "c.ann", "c.txt"]
        and "Permission denied" in err and not problems)


@case(10, "a directory where b.ann should go: b skipped before its .txt, the batch goes on")
def directory_at_output_ann(ws):
    src = _three_documents(ws, "ann-docs")
    out = ws.fresh_out("ann")
    (out / "b.ann").mkdir(parents=True)
    with ws.watch() as problems:
        status, _, err = ws.cli("tag", "-m", ws.model, src, "-o", out, "--output-format",
                                "brat", "--progress", "never")
    names = sorted(p.name for p in out.iterdir())
    return f"exit {status}, {names}", (
        status == 1 and names == ["a.ann", "a.txt", "b.ann", "c.ann", "c.txt"]
        and "'b'" in err and not problems)


@case(10, "skbioner info: escape sequences in metadata shown escaped; odd fields, no traceback")
def info_escapes_metadata(ws):
    from skbioner.io import load_model, save_model

    path = ws.fresh_out("meta.skops")
    save_model(load_model(ws.model), path, metadata={
        "description": "\x1b[2J\x1b[Hall clear\u202e", "training_data": "not an object",
        "versions": [1, 2], "train_seconds": "soon"})
    with ws.watch() as problems:
        status, out, err = ws.cli("info", path)
        status2, out2, _ = ws.cli("info", path, "--json")
    raw = any(c in out + out2 for c in ("\x1b", "\u202e"))
    return f"exit {status}/{status2}, raw escapes printed: {raw}", (
        status == status2 == 0 and not raw and "\\x1b[2J" in out and "Traceback" not in err
        and not problems)


@case(10, "evaluate on spans: an entity text contradicting GOLD's text is warned about")
def evaluate_contradicting_text(ws):
    gold = ws.write("gold.jsonl", json.dumps({"id": "d1", "text": "IL-2 gene", "entities": [
        {"start": 0, "end": 4, "type": "protein"}]}) + "\n")
    pred = ws.write("pred.jsonl", json.dumps({"id": "d1", "entities": [
        {"start": 0, "end": 4, "type": "protein", "text": "TNF!"}]}) + "\n")
    with ws.watch() as problems:
        status, out, err = ws.cli("evaluate", gold, pred)
    return err.strip().splitlines()[0][:150] if err.strip() else "(no warning)", (
        status == 0 and "warning" in err and "differ from the GOLD text" in err
        and "'TNF!'" in err and not problems)


# -- round three (issue 37): every size read from a file is bounded before memory is spent ----


def edited_model(data, edit):
    """The ``.skops`` file ``data`` with ``edit(schema)`` applied to its schema (in place)."""
    with zipfile.ZipFile(io.BytesIO(data)) as src:
        schema = json.loads(src.read("schema.json"))
        edit(schema)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for info in src.infolist():
                z.writestr(info.filename, json.dumps(schema) if info.filename == "schema.json"
                           else src.read(info))
    return buffer.getvalue()


def attributes(schema, cls):
    """The attribute nodes (``{name: node}``) of every object of class ``cls`` in ``schema``."""
    from skbioner.io._trust import nodes  # private: the nodes of a crafted file

    return [n["content"]["content"] for n in nodes(schema)
            if n["__class__"] == cls and n["__loader__"] == "ObjectNode"]


def word_class_model():
    """A ``.skops`` WordClassAnnotator of a three-word table."""
    from skbioner.annotate import WordClassAnnotator
    from skbioner.io import save_model

    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp, "classes.tsv")
        table.write_text("# skbioner word classes; normalize=none\nword\tbrown\n"
                         "IL-2\t0\np53\t10\ngene\t11\n")
        save_model(WordClassAnnotator(classes=str(table)).fit([["IL-2"]]), Path(tmp, "w.skops"))
        return Path(tmp, "w.skops").read_bytes()


def _three_commands(ws, path):
    """``[(command, status, err)]`` of info, predict and tag with the model at ``path``."""
    text = ws.inputs / "r3.txt"
    runs = [("info", *ws.cli("info", path)),
            ("predict", *ws.cli("predict", path, ws.train, "-o", ws.fresh_out("r3.iob2"))),
            ("tag", *ws.cli("tag", "-m", path, text, "-o", ws.fresh_out("r3.jsonl"),
                            "--progress", "never"))]
    return [(command, status, err) for command, status, _, err in runs]


def _all_refuse(ws, name, data, *needles):
    path = ws.write(name, data)
    ws.write("r3.txt", TEXT)
    with ws.watch() as problems:
        runs = _three_commands(ws, path)
    ok = all(status == 1 and one_line_error(err, command) and str(path) in err
             and all(n in err for n in needles) for command, status, err in runs)
    return _last(runs[-1][2])[:160] + (f" {problems}" if problems else ""), ok and not problems


def _set(cls, attr, value, index=None):
    def edit(schema):
        node = attributes(schema, cls)[0][attr]
        if index is not None:
            node = node["content"][index]
        node["content"] = json.dumps(value)
        node.pop("__id__", None)  # not the object another node with that id stands for
    return edit


@case("r3.1", "a word-class model whose n_words_ is 300,000,000: refused by info/predict/tag")
def model_count_sizes_allocation(ws):
    data = edited_model(word_class_model(), _set("WordClassAnnotator", "n_words_", 300_000_000))
    return _all_refuse(ws, "n-words.skops", data, "n_words_")


@case("r3.2", "a sparse matrix in a member not named .npz: checked inside all the same")
def model_sparse_member_renamed(ws):
    import scipy.sparse as sp

    matrix = io.BytesIO()
    sp.save_npz(matrix, sp.csr_matrix((3, 3)), compressed=False)
    inner = zipfile.ZipFile(io.BytesIO(matrix.getvalue()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:  # data.npy: 300 MB of zeros
        for info in inner.infolist():
            if info.filename != "data.npy":
                z.writestr(info.filename, inner.read(info))
        with z.open("data.npy", "w", force_zip64=True) as f:
            f.write(zipfile.ZipFile(io.BytesIO(_bomb(300 * 2**20))).read("bomb.npy")[:128])
            for _ in range(300):
                f.write(bytes(2**20 - (128 if _ == 299 else 0)))
    node = {"__class__": "csr_matrix", "__module__": "scipy.sparse._csr",
            "__loader__": "SparseMatrixNode", "type": "scipy", "file": "weights.bin"}
    return _refused(ws, "sparse-bomb.skops", skops_file(node, [("weights.bin",
                                                                 buffer.getvalue())]),
                    "would inflate")


@case("r3.3", "feature window offsets 10**7, 4*10**7, 10**9, feature_ranges_ 2**40: refused")
def model_offsets_size_allocation(ws):
    observed, ok = [], []
    for i, edit in enumerate([_set("FeatureGroup", "offsets", 10**7, 0),
                              _set("FeatureGroup", "offsets", 4 * 10**7, 0),
                              _set("FeatureGroup", "offsets", 10**9, 0),
                              _set("TokenFeaturizer", "n_features_out_", 2**40)]):
        line, good = _all_refuse(ws, f"offsets{i}.skops", edited_model(ws.model.read_bytes(),
                                                                         edit), "refused")
        observed.append(line[-70:])
        ok.append(good)
    return "; ".join(observed), all(ok)


@case("r3.7", "a model whose vocabulary_ is 5: 'the model file is invalid', naming it")
def model_type_confused(ws):
    from skbioner.io import save_model
    from skbioner.models import MajorityTagger

    save_model(MajorityTagger().fit([["IL-2"]], [["B-DNA"]]), ws.fresh_out("majority.skops"))
    data = edited_model(ws.fresh_out("majority.skops").read_bytes(),
                        lambda schema: attributes(schema, "MajorityTagger")[0].update(
                            vocabulary_=_json_node(5)))
    path = ws.write("confused.skops", data)
    with ws.watch() as problems:
        status, _, err = ws.cli("predict", path, ws.train, "-o", ws.fresh_out("c.iob2"))
    return _last(err)[:160], (status == 1 and one_line_error(err, "predict")
                              and f"{path}: the model file is invalid" in err and not problems)


@case("r3.4", "--unlabeled with one 30 MB line: refused naming file and line, before training")
def unlabeled_one_huge_line(ws):
    path = ws.write("pool.txt", "IL-2 gene .\n" + "w " * 15_000_000 + "\n")
    t0 = time.perf_counter()
    with ws.watch() as problems:
        status, _, err = ws.cli("train", "-q", "--train", ws.train, "--model", "majority",
                                "--distill", "majority", "--unlabeled", path, "-o",
                                ws.fresh_out("d.skops"))
    seconds = time.perf_counter() - t0
    return f"{_last(err)[:140]} ({seconds:.1f} s)", (
        status == 1 and one_line_error(err, "train") and f"{path}:2:" in err
        and seconds < 30 and not problems)


def _class_table_case(ws, name, content, needle):
    path = ws.write(name, content)
    with ws.watch() as problems:
        status, _, err = ws.cli("train", "-q", "--train", ws.train, "--word-classes", path,
                                "-o", ws.fresh_out("wc.skops"))
    return _last(err)[:140], (status == 1 and one_line_error(err, "train") and needle(path, err)
                              and not problems)


@case("r3.5", "word-class tables of 200,000 columns or gzip-bombed: refused, file and line named")
def class_table_columns_and_bomb(ws):
    import gzip

    head = "# skbioner word classes; normalize=none\n"
    wide, ok1 = _class_table_case(
        ws, "wide.tsv", head + "word\t" + "\t".join(f"c{i}" for i in range(200_000)) + "\n",
        lambda path, err: f"{path}:2:" in err)
    bomb, ok2 = _class_table_case(ws, "bomb.tsv.gz", gzip.compress(bytes(300 * 2**20)),
                                  lambda path, err: f"{path}:1:" in err)
    return f"{wide[-60:]}; {bomb[-60:]}", ok1 and ok2


@case("r3.8", "class tables: a duplicate word names file, line and word; an empty table refused")
def class_table_duplicate_and_empty(ws):
    head = "# skbioner word classes; normalize=none\nword\tbrown\n"
    dup, ok1 = _class_table_case(ws, "dup.tsv", head + "IL-2\t0\nIL-2\t1\n",
                                 lambda path, err: f"{path}:4: the word 'IL-2' appears" in err)
    empty, ok2 = _class_table_case(ws, "empty.tsv", head,
                                   lambda path, err: f"{path}: no word" in err)
    return f"{dup[-60:]}; {empty[-60:]}", ok1 and ok2


@case("r3.6", "plain text on stdin streams: documents written while the input goes on")
def stdin_text_streams(ws):
    feed = ("import sys, time\npara = b'The IL-2 gene in T cells .\\n' * 40 + b'\\n'\n"
            "for _ in range(1500): sys.stdout.buffer.write(para)\n"
            "sys.stdout.flush(); time.sleep(300)\n")
    out = ws.fresh_out("stream.jsonl")
    with ws.watch() as problems:
        writer = subprocess.Popen([sys.executable, "-c", feed], stdout=subprocess.PIPE)
        with open(out, "wb") as sink:
            tagger = subprocess.Popen([sys.executable, "-m", "skbioner", "tag", "-m", ws.model,
                                       "-", "--progress", "never", "--no-confidence"],
                                      stdin=writer.stdout, stdout=sink, stderr=subprocess.PIPE,
                                      env=dict(os.environ, TMPDIR=str(ws.tmp),
                                               PYTHONPATH=str(ROOT)), cwd=ws.root)
            writer.stdout.close()
            deadline = time.monotonic() + 120
            while out.stat().st_size == 0 and time.monotonic() < deadline:
                time.sleep(0.5)
            streamed = out.stat().st_size > 0 and writer.poll() is None
            writer.kill()
            writer.wait()
            tagger.communicate(timeout=300)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    return f"output before the input ended: {streamed}; documents {ids[:3]}...", (
        streamed and ids[:2] == ["stdin", "stdin-2"] and tagger.returncode == 0
        and not problems)


@case("r3.9", "a numba cache that cannot be written (ulimit -f): a note naming it, work done")
def numba_cache_unwritable(ws):
    import resource

    cache = ws.out / "numba-cache"
    cache.mkdir()

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))

    with ws.watch() as problems:
        r = ws.sub("predict", ws.model, ws.train, "-o", ws.fresh_out("u.iob2"),
                   preexec_fn=small_files, env={"NUMBA_CACHE_DIR": str(cache)})
    err = r.stderr.decode()
    note = next((line for line in err.splitlines() if "cannot write its cache" in line), "")
    return f"exit {r.returncode}: {note[:120]}", (
        r.returncode == 0 and str(cache) in note and ws.fresh_out("u.iob2").exists()
        and not problems)


@case("r3.10", "-o newdir/ (trailing slash): refused, no file named newdir written")
def output_trailing_slash(ws):
    with ws.watch() as problems:
        status, _, err = ws.cli("predict", ws.model, ws.train, "-o", f"{ws.out}/newdir/")
    return _last(err)[:140], (status == 1 and one_line_error(err, "predict")
                              and "ends in '/'" in err and not (ws.out / "newdir").exists()
                              and not problems)


@case("r3.11", "fit(X, None): scikit-learn's 'requires y'; a failed tokenizing says why")
def fit_without_labels(ws):
    from skbioner.models import MajorityTagger
    from skbioner.pipelines import make_tagger
    from skbioner.tagging import Document, _tagger
    from skbioner.text import BioTokenizer

    said = []
    for model in (MajorityTagger(), make_tagger()):
        try:
            model.fit([["IL-2", "gene"]], None)
        except Exception as exc:  # noqa: BLE001 - what it says is the observation
            said.append(f"{type(exc).__name__}: {exc}")
    real = BioTokenizer.tokenize_text
    BioTokenizer.tokenize_text = lambda self, text: (_ for _ in ()).throw(MemoryError())
    try:
        [res] = _tagger._tag_docs(None, [Document("d", "IL-2", "x")], BioTokenizer(), 1000)
    finally:
        BioTokenizer.tokenize_text = real
    return f"{said[0][:80]}; {res}", (
        len(said) == 2 and all("requires y to be passed" in s for s in said)
        and str(res).endswith("cannot tokenize: out of memory"))


# -- running ---------------------------------------------------------------------------------


def run_all(root=None, only=None):
    """Run every case in a fresh workspace; return ``[(item, name, expected, observed, ok)]``."""
    with contextlib.ExitStack() as stack:
        if root is None:
            root = stack.enter_context(tempfile.TemporaryDirectory(prefix="skbioner-hostile-"))
        saved = os.environ.get("TMPDIR"), tempfile.tempdir
        ws = Workspace(root)
        os.environ["TMPDIR"] = str(ws.tmp)  # what the commands create there must be gone
        tempfile.tempdir = None
        try:
            rows = []
            for item, name, expected, function in CASES:
                if only and only not in name:
                    continue
                try:
                    observed, ok = function(ws)
                except Exception as exc:  # a case that breaks is a failed case
                    observed, ok = f"the case raised {type(exc).__name__}: {exc}", False
                observed = " ".join(str(observed).replace(str(ws.root), "WS").split())
                rows.append((item, name, expected, observed, bool(ok)))
            return rows
        finally:
            if saved[0] is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = saved[0]
            tempfile.tempdir = saved[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")
    parser.add_argument("--only", metavar="SUBSTRING", help="run the cases whose name has it")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rows = run_all(args.keep, args.only)
    seconds = time.perf_counter() - t0
    print(f"{'item':>5}  {'case':<36}  {'pass':<4}  expected / observed")
    for item, name, expected, observed, ok in rows:
        print(f"{item:>5}  {name:<36}  {'yes' if ok else 'NO':<4}  expected: {expected}")
        print(f"{'':>5}  {'':<36}  {'':<4}  observed: {observed}")
    failed = [name for _, name, _, _, ok in rows if not ok]
    print(json.dumps({"cases": len(rows), "passed": len(rows) - len(failed), "failed": failed,
                      "seconds": round(seconds, 1)}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
