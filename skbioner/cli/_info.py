"""Describe a saved model: what it tags, how it was trained, what weighs in it.

Shows the file (size, format), the versions it was saved with, its training
data (file, SHA-256, documents, sentences, tokens, entities per type) and
settings as `skbioner train` recorded them, the pipeline's steps, the entity
types and the internal segment scheme, the features (templates, cutoff,
number), the model's settings that differ from the defaults, its weights and
whether it gives confidences.  Without MODEL: the model bundled with
skbioner.  --top N adds, for every label of the chain, the N heaviest
positive and negative features (as eli5 shows a CRF's weights); --json
prints it all as one JSON object.
"""

import json
import os
import re
import sys

from ._formats import printable

NAME = "info"
HELP = "describe a saved model (training data, types, features, settings, heaviest features)"


def add_arguments(p):
    from ._predict import ALLOW_PICKLE_HELP

    p.add_argument("model", nargs="?", default=None, metavar="MODEL",
                   help="a model saved by `skbioner train` (default: the bundled model)")
    p.add_argument("--top", type=int, default=0, metavar="N",
                   help="show the N heaviest features of every label")
    p.add_argument("--labels", default=None, metavar="L1,L2",
                   help="with --top: only these labels (e.g. B-protein,S-protein)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--allow-pickle", action="store_true", help=ALLOW_PICKLE_HELP)


def gather(path, model, top=0, labels=None, data=None):
    """Everything ``skbioner info`` shows, as a dict (``data``: the file's bytes, if read)."""
    from ..io import ModelFileError
    from ..io._models import metadata_of_bytes
    from ..pipelines import describe_model, top_features

    if data is None:
        with open(path, "rb") as fh:
            data = fh.read()
    try:
        metadata, problem = metadata_of_bytes(data, os.fsdecode(os.fspath(path))), None
    except ModelFileError as exc:  # the model loaded: say what is wrong with its record
        metadata, problem = {}, str(exc)
    out = {"file": {"path": os.fspath(path), "bytes": len(data),
                    "format": "skops" if data[:4] == b"PK\x03\x04" else "pickle"},
           "metadata": metadata, **describe_model(model)}
    if problem:
        out["metadata_problem"] = problem
    if top:
        weights = top_features(model, n=top)
        if labels:
            unknown = sorted(set(labels) - set(weights))
            if unknown:
                raise ValueError(f"--labels: no label {', '.join(unknown)} in this model "
                                 f"(labels: {', '.join(weights)})")
            weights = {k: v for k, v in weights.items() if k in labels}
        out["top_features"] = weights
    return out


def _dict(value):
    """``value`` if it is a dict, else {}: a file's metadata is read, not trusted."""
    return value if isinstance(value, dict) else {}


def _counted(value, noun):
    """``"2 documents"``, ``"1 sentence"``; 0 documents: the corpus had no document ids."""
    from ._formats import documents_phrase, plural

    if not isinstance(value, int) or isinstance(value, bool):
        return f"{value} {noun}s"  # a file's metadata, shown as it is
    return documents_phrase(value) if noun == "document" else plural(value, noun)


def _count(d):
    return ", ".join(f"{k} {v:,}" if isinstance(v, int) and not isinstance(v, bool)
                     else f"{k} {v}" for k, v in _dict(d).items())


def render(info):
    """The text ``skbioner info`` prints for ``info`` (see :func:`gather`).

    The metadata comes from the file: fields of unexpected types are shown as
    they are, and control characters are escaped (a crafted file cannot
    clear the terminal or hide lines).
    """
    f, meta, m = info["file"], _dict(info["metadata"]), info["model"]
    lines = [f"model file: {f['path']} ({f['bytes'] / 1e6:.2f} MB, "
             + ("safe .skops format)" if f["format"] == "skops" else "pickle)")]
    if info.get("metadata_problem"):
        lines.append(f"(metadata not shown: {info['metadata_problem']})")
    if meta.get("description"):
        lines.append(f"about: {meta['description']}")
    versions = _dict(meta.get("versions"))
    if versions:
        lines.append(f"saved: {meta.get('saved', '?')} with "
                     + ", ".join(f"{k} {v}" for k, v in versions.items()))
    data = _dict(meta.get("training_data"))
    # one file's record, or several by name (a model trained on train + devel)
    records = [data] if "file" in data or not all(map(_dict, data.values())) else \
        list(data.values())
    for data in filter(None, records):
        digest = data.get("sha256")
        lines.append(f"training data: {data.get('file')}"
                     + (f" (sha256 {digest[:16]}...)" if isinstance(digest, str) else ""))
        lines.append(f"  {_counted(data.get('documents', 0), 'document')}, "
                     f"{_counted(data.get('sentences', 0), 'sentence')}, "
                     f"{_counted(data.get('tokens', 0), 'token')}; entities: "
                     f"{_count(data.get('entities', {}))}")
    settings = {k: meta[k] for k in ("preset", "system", "model", "scheme", "params",
                                     "feature_params", "pos", "hmm_states", "hmm_params",
                                     "tuned")
                if meta.get(k) not in (None, [], False)}
    settings.update(meta.get("options") or {})  # make_tagger's arguments (skbioner train)
    if settings or meta.get("train_seconds") is not None:
        how = ", ".join(f"{k}={v}" for k, v in settings.items())
        secs = meta.get("train_seconds")
        lines.append(f"trained: {meta.get('command', '?')} ({how})"
                     + (f" in {secs:.0f} s" if isinstance(secs, int | float) else ""))
    if not meta:
        lines.append("(no training record: saved without metadata, or a pickle)")
    combo = info.get("combination")
    if combo:
        how = ", ".join(f"{k}={v}" for k, v in combo["settings"].items())
        kind = "second pass over" if "Stacked" in combo["class"] else "vote of"
        lines.append(f"combination: {combo['class']} ({how}), a {kind} "
                     f"{len(info['members'])} members:")
        for member in info["members"]:
            lines.append(f"  member {member['name']}: "
                         + " -> ".join(f"{s['name']} ({s['class']})" for s in member["steps"])
                         + f"; {_model_line(member['model'])}")
    lines.append(("second pass: " if combo and "Stacked" in combo["class"] else "pipeline: ")
                 + " -> ".join(f"{s['name']} ({s['class']})" for s in info["steps"]))
    if info.get("raw_cuts") == "learned":
        lines.append("raw text: hyphenated words cut where a tagger of sub-word pieces puts an "
                     "entity boundary (LearnedCutTagger); tokens tagged as given")
    if "recut" in info:
        lines.append(f"words re-cut at hyphens and slashes before tagging (RecutTagger, "
                     f"cuts={info['recut']!r}), on gold tokens and raw text alike")
    lines.append(f"entity types: {', '.join(info['types']) or '-'}")
    if m.get("scheme") is not None:
        extra = m.get("extra_schemes")
        lines.append(f"scheme: {m['scheme']} internally"
                     + (f" (+ {', '.join(extra)} trained jointly and folded in)" if extra else "")
                     + "; predictions in IOB2")
    lex = info.get("lexicons")
    if lex:
        lines.append(f"lexicons: {lex['source']} (sha256 {lex['sha256'][:16]}...): "
                     + ", ".join(f"{t} {n:,} names" for t, n in lex["names"].items()))
    feats = info.get("features")
    if feats:
        cols = f"; annotation columns read: {', '.join(feats['columns'])}" if feats["columns"] \
            else ""
        lines.append(f"features: {feats['n_features']:,} ({feats['templates']} templates, "
                     f"{len(feats['groups'])} groups, min_count={feats['min_count']}, "
                     f"{feats['mode']}){cols}")
    for key in ("segmenter", "classifier"):
        if key in m:
            lines.append(f"{key}: {_model_line(m[key])}")
    lines.append(f"model: {_model_line(m)}")
    lines.append("confidences: " + ("yes (per-entity probabilities)" if info["confidences"]
                                    else "no (this model gives none)"))
    if any(label.endswith("-O") for label in info.get("top_features", {})):
        lines.append("(B-O, I-O, E-O, S-O: the BIES scheme cuts the text outside entities into "
                     "segments too -- S-O a lone outside token between entities, B-O I-O... "
                     "E-O a run of them; all are O in the predictions: docs/schemes.md)")
    for label, w in info.get("top_features", {}).items():
        lines.append(f"heaviest features of {label}:")
        for sign in ("positive", "negative"):
            for name, weight in w[sign]:
                lines.append(f"  {weight:+9.4f}  {name}")
            if not w[sign]:
                lines.append(f"  (no {sign} weight)")
    return "\n".join(printable(line) for line in lines) + "\n"


def _model_line(m):
    parts = [m["class"]]
    settings = {k: v for k, v in m.get("settings", {}).items()
                if k not in ("segmenter", "classifier")}
    if settings:
        parts.append(", ".join(f"{k}={v}" for k, v in settings.items()))
    if "n_iter" in m:
        parts.append(f"{m['n_iter']:.0f} epochs run")
    if "temperature" in m:
        parts.append(f"temperature {m['temperature']:.3f}")
    w = m.get("weights")
    if w:
        total = w["shape"][0] * w["shape"][1]
        parts.append(f"weights {w['shape'][0]:,} x {w['shape'][1]} ({w['nonzero']:,} non-zero, "
                     f"{100 * w['nonzero'] / max(total, 1):.0f}%; {w['stored']})")
    return "; ".join(parts)


def run(args):
    from ..tagging import bundled_model_path
    from ..tagging._tagger import _model_of, model_reference

    if args.top < 0:
        raise ValueError(f"--top must be a positive number of features, got {args.top}")
    labels = [x.strip() for x in args.labels.split(",") if x.strip()] if args.labels else None
    path = args.model_file = bundled_model_path(args.model) or args.model
    ref = model_reference(path)  # a pipe is read once: the model and its record from it
    model = _model_of(ref, args.allow_pickle)
    info = gather(path, model, args.top, labels, getattr(ref, "data", None))
    if args.json:
        text = json.dumps(info, ensure_ascii=False, indent=1, default=str)
        # JSON escapes C0 controls itself; C1 controls and bidirectional overrides too
        sys.stdout.write(re.sub("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]",
                                lambda c: f"\\u{ord(c.group()):04x}", text) + "\n")
    else:
        sys.stdout.write(render(info))
    return 0
