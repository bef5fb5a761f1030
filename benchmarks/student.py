"""The JNLPBA vote distilled into one fast model: a student trained on gold + the vote's labels.

Knowledge distillation / self-training (issue 25's tagging-speed target): the
chosen vote of four (the *teacher*, :data:`TEACHER_MEMBERS`, soft above 0.3)
labels unlabeled in-domain sentences; ONE student model (``online-crf
--word-classes``, or the two-pass with word classes) is trained on the gold
training sentences plus the teacher-labelled ones.  Prediction state is the
student alone: one model's tagging speed and size.

1. Unlabeled text (``unlabeled/biomed-sentences.txt``) less every sentence equal,
   as a token sequence, to a sentence of JNLPBA train or test -- and, more
   strictly, equal once case, spaces and punctuation are ignored (a GENIA
   sentence tokenized differently) -- and less repeats; shuffled (seed 0), so
   any prefix of it mixes its source corpora.
2. Dev (choices): the teacher trained on ``fit`` (cached as a model file in
   ``--cache``), its entities and confidences on the unlabeled sentences
   (cached); every trial of the grid (student kind x teacher-labelled tokens x
   minimum confidence) trains the student on ``fit`` + a prefix of that text
   and scores ``dev``: F1, training seconds, tagging speed, model size.  A
   trial with 0 tokens is the student kind on gold alone (the baseline).
3. Test (``--test``, once, after the choice): the teacher trained on all of
   ``train`` (``--test-teacher``, a saved vote whose parameters must equal
   the chosen vote's), the dev-chosen student recipe on ``train`` + its labels.

    python benchmarks/student.py --data ../shared/data --cache /work/cache-student \\
        --kinds word-classes --tokens 0,250000,500000,1000000 --min-confidence 0,0.5
    python benchmarks/student.py --cache /work/cache-student --test --kinds word-classes \\
        --tokens 500000 --min-confidence 0 --test-teacher /work/cache-ref/vote4.skops --store

Result (docs/lab/benchmarks.md "Distilling the vote into one student"): on dev the best recipe
(500k tokens, sentences with >= 1 teacher entity, each >= 0.5 sure) is +0.20 over the
word-classes student on gold alone (mean of three seeds, within seed noise); the two-pass student
lost 0.33.  On test, once: 72.60 against 72.11 for the same model on gold alone.

Last line of stdout: one JSON object (``records``; ``removed``: the unlabeled
sentences dropped as copies of gold sentences).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import harness

#: the chosen JNLPBA vote (benchmarks/combination.py, its latest jnlpba test record)
TEACHER_MEMBERS = ("two-pass", "nerbio", "nerbio-word-classes", "two-pass-word-classes")
TEACHER_SETTINGS = {"voting": "soft", "threshold": 0.3}

#: student kinds: name -> make_tagger options (a name of benchmarks/combination.py MEMBERS)
KINDS = ("word-classes", "two-pass-word-classes", "online-crf")


def teacher_options(data):
    from combination import combination_options

    return combination_options("vote", list(TEACHER_MEMBERS), "jnlpba", data, TEACHER_SETTINGS)


def student_options(kind, data):
    from combination import member_options

    options = member_options(kind, "jnlpba", data)
    options.pop("name")
    return options


def _digest(obj):
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:12]


def train_teacher(path, data):
    """Child process: the teacher vote trained on ``fit``, saved at ``path``."""
    from skbioner.io import save_model
    from skbioner.pipelines import make_tagger

    train = harness.load("jnlpba", "fit", data)
    model = make_tagger(**teacher_options(data))
    with harness.Stopwatch() as sw:
        model.fit(train.X, train.y)
    tmp = Path(str(path) + ".tmp")
    save_model(model, tmp)
    tmp.replace(path)
    return {"train_seconds": round(sw.wall, 1), "train_cpu_seconds": round(sw.cpu, 1)}


def unlabeled_pool(path, data, seed=0):
    """The unlabeled sentences a student may learn from, shuffled, and what was removed.

    Removed (:func:`skbioner.datasets.drop_copies`): every sentence equal to a
    sentence of JNLPBA train or test as a token sequence (``exact``), once
    case, spaces and punctuation are ignored (``normalized``: the same GENIA
    sentence tokenized differently), or sharing 8 such words in a row with
    one (``ngram``: a sentence cut differently); repeats.  No dev or test
    sentence, and no second copy of a gold sentence with the teacher's
    labels, reaches the student.
    """
    from skbioner.datasets import drop_copies
    from skbioner.io import read_tokenized

    sentences = read_tokenized(path)
    gold = harness.load("jnlpba", "train", data).X + harness.load("jnlpba", "test", data).X
    keep, removed = drop_copies(sentences, gold)
    random.Random(seed).shuffle(keep)
    return keep, {"sentences_read": len(sentences), "tokens_read": sum(map(len, sentences)),
                  "removed": removed, "sentences_kept": len(keep),
                  "tokens_kept": sum(map(len, keep))}


CHUNK = 4000


def teacher_labels(teacher_path, pool, n_tokens, cache, tag):
    """The teacher's entities (with confidences) on the pool's first sentences.

    Enough chunks of :data:`CHUNK` sentences to hold ``n_tokens`` tokens,
    each cached in ``cache`` (key: ``tag``, the teacher, and the chunk's
    sentences).  Returns ``(entities per sentence, seconds spent labelling
    now, tokens labelled now)``.
    """
    from skbioner.ensemble import tagger_outputs
    from skbioner.io import load_model

    model, out, seconds, tokens, total = None, [], 0.0, 0, 0
    for start in range(0, len(pool), CHUNK):
        if total >= n_tokens:
            break
        chunk = pool[start:start + CHUNK]
        path = Path(cache) / f"labels-{tag}-{_digest([list(map(list, chunk))])}.json"
        if path.exists():
            ents = json.loads(path.read_text(encoding="utf-8"))
        else:
            if model is None:
                model = load_model(teacher_path)
            with harness.Stopwatch() as sw:
                ents = tagger_outputs(model, chunk, marginals=False).entities
            seconds += sw.wall
            tokens += sum(map(len, chunk))
            print(f"labelled sentences {start}-{start + len(chunk)}: "
                  f"{sum(map(len, chunk)) / sw.wall:,.0f} tokens/s", file=sys.stderr, flush=True)
            path.with_suffix(".tmp").write_text(json.dumps(ents), encoding="utf-8")
            path.with_suffix(".tmp").replace(path)
        out += [[tuple(e) for e in s] for s in ents]
        total += sum(map(len, chunk))
    return out, seconds, tokens


def pseudo_corpus(pool, entities, n_tokens, min_confidence, min_entities=0):
    """The first pool sentences whose every teacher entity has confidence >= ``min_confidence``.

    And that hold at least ``min_entities`` teacher entities (1: no sentence
    the teacher finds nothing in: 36% of the unlabeled text against 11% of
    the gold sentences).  As many as hold ``n_tokens`` tokens; returns
    ``(X, y)`` (IOB2 labels).
    """
    from skbioner.schemes import spans_to_labels

    X, y, total = [], [], 0
    for s, ents in zip(pool, entities):
        if total >= n_tokens:
            break
        if any(e[3] < min_confidence for e in ents) or len(ents) < min_entities:
            continue
        X.append(s)
        y.append(spans_to_labels([e[:3] for e in ents], len(s), "IOB2"))
        total += len(s)
    if total < n_tokens:
        raise SystemExit(f"only {total} teacher-labelled tokens pass min_confidence="
                         f"{min_confidence}; label more (--label-tokens)")
    return X, y


def _passing(pool, entities, min_confidence, min_entities):
    """Tokens of the labelled sentences that pass the filters of :func:`pseudo_corpus`."""
    return sum(len(s) for s, ents in zip(pool, entities)
               if len(ents) >= min_entities and all(e[3] >= min_confidence for e in ents))


def run_student(kind, split, data, pool, entities, n_tokens, min_confidence, gold_copies,
                save=None, seed=None, min_entities=0):
    """Child process: the student trained on gold (``fit``/``train``) + pseudo labels."""
    from skbioner.cli import train_command
    from skbioner.io import save_model
    from skbioner.pipelines import make_tagger

    fit_split = {"test": "train", "dev": "fit"}[split]
    train, gold = harness.load("jnlpba", fit_split, data), harness.load("jnlpba", split, data)
    Xp, yp = pseudo_corpus(pool, entities, n_tokens, min_confidence, min_entities)
    X = list(train.X) * gold_copies + Xp
    y = list(train.y) * gold_copies + yp
    options = student_options(kind, data)
    if seed is not None:  # the student's own seed (the order its epochs visit sentences)
        options["model_params"] = {**options.get("model_params", {}), "random_state": seed}
    model = make_tagger(**options)
    with harness.Stopwatch() as sw:
        model.fit(X, y)
    pred, speed = harness.tagging_speed(model, gold.X, passes=2)
    if save is not None:
        save_model(model, save)
    return {**harness.evaluate(gold, pred, data), "train_seconds": round(sw.wall, 1),
            "train_cpu_seconds": round(sw.cpu, 1), "tag_tokens_per_second": round(speed),
            "model_mb": round(harness.model_size_mb(model), 2),
            "pseudo_sentences": len(Xp), "pseudo_tokens": sum(map(len, Xp)),
            "gold_sentences": len(train), "student_cli": train_command(
                train_file=f"jnlpba/{fit_split}", **options)}


def run_teacher_on(teacher_path, split, data):
    """Child process: the teacher's scores on ``split`` (a check of the cached model)."""
    from skbioner.io import load_model

    gold = harness.load("jnlpba", split, data)
    model = load_model(teacher_path)
    with harness.Stopwatch() as sw:
        pred = model.predict(gold.X)
    return {**harness.evaluate(gold, pred, data),
            "tag_tokens_per_second": round(gold.n_tokens / sw.wall)}


def check_teacher(path, data):
    """Refuse a saved teacher whose parameters are not the chosen vote's."""
    from combination import _plain, resolved_params

    from skbioner.io import load_model

    want = resolved_params(teacher_options(data))
    got = {k: _plain(v) for k, v in sorted(load_model(path).get_params(deep=True).items())}
    diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    if diff:
        raise SystemExit(f"{path}: not the chosen vote (parameters differ: {diff[:5]})")


def _floats(text, kind=float):
    return [kind(float(v)) for v in text.split(",") if v.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap, corpora=False)
    ap.add_argument("--cache", default="/work/cache-student",
                    help="teacher model files and teacher labels (reused)")
    ap.add_argument("--unlabeled", default=None,
                    help="one sentence per line (default DATA/unlabeled/biomed-sentences.txt)")
    ap.add_argument("--kinds", default="word-classes", help=f"student kinds from {KINDS}")
    ap.add_argument("--tokens", default="0,250000,500000,1000000",
                    help="teacher-labelled tokens per trial (0: gold alone)")
    ap.add_argument("--min-confidence", default="0",
                    help="keep a sentence only if its every teacher entity is this sure")
    ap.add_argument("--min-entities", default="0",
                    help="keep a sentence only if the teacher found this many entities in it")
    ap.add_argument("--gold-copies", default="1", help="gold sentences repeated (a weight)")
    ap.add_argument("--seeds", default=None,
                    help="students' random_state values (default: the preset's; several "
                         "measure the noise)")
    ap.add_argument("--teacher-only", action="store_true",
                    help="train (or check) the teacher and label, no student")
    ap.add_argument("--test", action="store_true",
                    help="the (dev-chosen) recipe on train, scored on test, once")
    ap.add_argument("--test-teacher", default="/work/cache-ref/vote4.skops",
                    help="the chosen vote trained on all of train (checked, then reused)")
    ap.add_argument("--teacher-train-seconds", type=float, default=None,
                    help="with --test: the test teacher's training seconds, for the recipe total")
    ap.add_argument("--save", default=None, help="with --test: save the student here")
    args = ap.parse_args()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    data = str(harness.data_root(args.data))
    from combination import resolved_params

    split = "test" if args.test else "dev"
    records, summary = [], {}
    if split == "dev":
        opts = teacher_options(data)
        teacher = cache / f"teacher-fit-{_digest([opts, resolved_params(opts)])}.skops"
        info = teacher.with_suffix(".json")
        if not teacher.exists():
            res = harness.isolated(train_teacher, teacher, data)
            info.write_text(json.dumps(res))
        teacher_fit = json.loads(info.read_text())
        if "dev" not in teacher_fit:
            teacher_fit["dev"] = harness.isolated(run_teacher_on, teacher, "dev", data)
            info.write_text(json.dumps(teacher_fit))
        print(f"teacher on fit: {teacher_fit['train_seconds']} s, dev exact "
              f"{teacher_fit['dev']['exact_f1']:.4f}", file=sys.stderr, flush=True)
        tag = "fit-" + teacher.stem.split("-")[-1]
    else:
        teacher = Path(args.test_teacher)
        check_teacher(teacher, data)
        teacher_fit = None
        tag = f"train-{_digest([str(teacher.resolve()), teacher.stat().st_size])}"
    unlabeled = args.unlabeled or str(Path(data) / "unlabeled" / "biomed-sentences.txt")
    with harness.Stopwatch() as sw_pool:
        pool, pool_info = unlabeled_pool(unlabeled, data)
    print(f"unlabeled: {pool_info} ({sw_pool.wall:.0f} s)", file=sys.stderr, flush=True)
    tokens = _floats(args.tokens, int)
    confs = _floats(args.min_confidence)
    # enough teacher labels for the largest trial under the strictest filter (+50%)
    ments = _floats(args.min_entities, int)
    need, label_seconds, labelled = max(tokens), 0.0, 0
    while True:  # enough teacher labels for the largest trial under the strictest filter
        entities, seconds, tokens_now = teacher_labels(teacher, pool, need, cache, tag)
        label_seconds, labelled = label_seconds + seconds, labelled + tokens_now
        short = max(tokens) - min(_passing(pool, entities, c, m) for c in confs for m in ments)
        if short <= 0 or len(entities) == len(pool):
            break
        need = sum(map(len, pool[:len(entities)])) + 2 * short
    label_speed = labelled / label_seconds if label_seconds else None
    if args.teacher_only:
        harness.finish([], None, {"unlabeled": pool_info, "teacher": teacher_fit})
        return
    seeds = [None] if args.seeds is None else _floats(args.seeds, int)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    trials = [(kind, copies, n_tok, conf, seed, ment) for kind in kinds
              for copies in _floats(args.gold_copies, int) for n_tok in tokens
              for conf in (confs if n_tok else [0.0]) for seed in seeds
              for ment in (ments if n_tok else [0])]
    for kind, copies, n, conf, seed, ment in trials:
        if _passing(pool, entities, conf, ment) < n:
            print(f"skipped: fewer than {n:,} unlabeled tokens pass min_confidence={conf} "
                  f"min_entities={ment}", file=sys.stderr, flush=True)
            continue
        res = harness.isolated(run_student, kind, split, data, pool, entities, n,
                               conf, copies, args.save if args.test else None,
                               seed, ment)
        if args.test:
            res["label_seconds_per_token"] = (1 / label_speed if label_speed
                                              else None)
            # the teacher tags the whole prefix the filters choose from
            res["labelled_tokens"] = sum(map(len, pool[:len(entities)]))
            res["label_seconds"] = (round(res["labelled_tokens"] / label_speed, 1)
                                    if label_speed else None)
            if args.teacher_train_seconds is not None and label_speed:
                res["recipe_train_seconds"] = round(
                    args.teacher_train_seconds + res["label_seconds"]
                    + res["train_seconds"], 1)
        name = (f"student {kind} + {n:,} teacher tokens"
                + (f" conf>={conf}" if conf else "")
                + (f" entities>={ment}" if ment else "")
                + (f" gold x{copies}" if copies != 1 else "")
                + (f" seed {seed}" if seed is not None else ""))
        extra = (f" (unseen {res['exact_f1_unseen']:.4f})"
                 if "exact_f1_unseen" in res else "")
        print(f"{split} {name:<60} exact {res['exact_f1']:.4f}{extra} | train "
              f"{res['train_seconds']:.1f} s | tag {res['tag_tokens_per_second']:,}"
              f" tok/s | {res['model_mb']:.1f} MB", file=sys.stderr, flush=True)
        records.append(harness.record(
            "distillation", name, "jnlpba", split, student=kind,
            teacher_tokens=n, min_confidence=conf, gold_copies=copies, seed=seed,
            min_entities=ment,
            teacher="vote " + "+".join(TEACHER_MEMBERS) + " soft >0.3",
            unlabeled=Path(unlabeled).name, unlabeled_pool=pool_info,
            teacher_fit=teacher_fit, **res))
    summary["unlabeled"] = pool_info
    harness.finish(records, args, summary)


if __name__ == "__main__":
    main()
