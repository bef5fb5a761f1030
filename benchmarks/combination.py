"""The suite's systems combined (issue 25): members alone, their votes and a stack, dev then test.

1. Every candidate member (one ``skbioner train`` system each: :data:`MEMBERS`) is
   trained on ``fit`` and tags ``dev``, each in a fresh process: its dev exact F1,
   training seconds, steady-state tagging speed and model size, and its entities
   with their confidences.
2. Every vote over those entities is scored on ``dev`` without training again
   (:func:`skbioner.ensemble.vote_spans`, what :class:`~skbioner.ensemble.VotingTagger`
   does): every subset of two or more members, hard and soft votes, thresholds
   0.3 and 0.5, members weighed 1 or, per entity type, by their dev F1 on that
   type (Ekbal & Saha 2012).  The best on dev is the chosen vote.  With many
   candidates (2^n subsets), ``--beam B`` searches the subsets by size instead:
   every pair, then the B best subsets of each size grown by one member
   (``--seed-vote A+B``: a subset, e.g. the last dev choice, scored and grown too).
3. With ``--stack``, the chosen vote's members stacked under an ``online-crf``
   second pass (``--model stack``) are trained on ``fit`` and scored on ``dev``
   too, and so is each ``--stack-members A+B`` stack (the two-pass whose first
   pass is several members: ``skbioner train --two-pass --first-pass A,B``);
   whichever of the vote and the stacks is best on dev is the chosen
   combination.
4. The chosen combination, built by one ``skbioner train --model vote|stack
   --members ...`` command, is trained on ``train`` and scored on ``test`` once:
   exact F1 (on JNLPBA also on the test abstracts that are not training
   abstracts), training seconds, tagging speed, model size; and each of its
   members alone on ``test`` (their entities inside the fitted combination).

    python benchmarks/combination.py --data ../shared/data --corpora jnlpba --store
    python benchmarks/combination.py --corpora bionlp13cg --members online-crf,ioe2,cascaded
    python benchmarks/combination.py --members two-pass,nerbio,pairwise-svm-viterbi \
        --members-only --cache /tmp/members     # fill the cache (several can run at once)
    python benchmarks/combination.py --members two-pass,nerbio,pairwise-svm,pairwise-svm-viterbi \
        --cache /tmp/members --store            # then choose on dev, test once
    python benchmarks/combination.py --members two-pass,two-pass-ioe2,nerbio,nerbio-ioe2,... \
        --cache /tmp/members --beam 5 --seed-vote two-pass+nerbio --no-test  # many candidates
    python benchmarks/combination.py --members two-pass,nerbio --stack-members online-crf+nerbio \
        --cache /tmp/members --no-test          # a two-pass over two first passes, on dev

With ``--cache DIR`` each member's dev record is kept and reused by any later run with
the same member options resolving to the same tagger (every parameter, deep: a preset
changed in the code is a new key); the greedy ``pairwise-svm`` is read off the
``pairwise-svm-viterbi`` fit (:data:`DERIVED`).

Choices are made on dev only; the test file only reports.  Last line of stdout: one
JSON object (``chosen``: the combination chosen per corpus).
"""

from __future__ import annotations

import argparse
import itertools
import sys

import harness

#: candidate members: name -> make_tagger options (one ``skbioner train`` system each;
#: diverse by segment representation, word classes and model)
MEMBERS = {
    "online-crf": {"model": "online-crf"},
    "ioe2": {"model": "online-crf", "scheme": "IOE2"},
    "word-classes": {"model": "online-crf", "word_classes": "bundled"},
    "ioe2-word-classes": {"model": "online-crf", "scheme": "IOE2", "word_classes": "bundled"},
    "cascaded": {"model": "cascaded"},
    "cascaded-word-classes": {"model": "cascaded", "word_classes": "bundled"},
    "nerbio": {"model": "nerbio"},
    # NERBio's features with the bundled word classes (the README's best NERBio row)
    "nerbio-word-classes": {"model": "nerbio", "word_classes": "bundled"},
    "hmm-svm": {"model": "hmm-svm"},
    # the best single pipeline (``skbioner train --two-pass``): a second online CRF over
    # the first one's out-of-fold output
    "two-pass": {"model": "online-crf", "two_pass": True},
    # the same with the bundled word classes in both passes
    "two-pass-word-classes": {"model": "online-crf", "two_pass": True,
                              "word_classes": "bundled"},
    # Cho et al.'s segment representations on the strong members: IOE2 (an entity's last
    # token marked, not its first) alone, no scheme mix, in both passes of a two-pass and
    # under NERBio's features -- members whose boundary errors differ from the BIES ones
    "two-pass-ioe2": {"model": "online-crf", "two_pass": True, "scheme": "IOE2"},
    "two-pass-ioe2-word-classes": {"model": "online-crf", "two_pass": True, "scheme": "IOE2",
                                   "word_classes": "bundled"},
    "nerbio-ioe2": {"model": "nerbio", "scheme": "IOE2"},
    "nerbio-ioe2-word-classes": {"model": "nerbio", "scheme": "IOE2",
                                 "word_classes": "bundled"},
    # Kazama's pairwise SVM, greedy (the preset: no confidences, every entity 1.0) and
    # with Platt probabilities and Viterbi (confidences for soft votes)
    "pairwise-svm": {"model": "pairwise-svm"},
    "pairwise-svm-viterbi": {"model": "pairwise-svm", "model_params": {"decoding": "viterbi"}},
}
DEFAULT_MEMBERS = "online-crf,ioe2,word-classes,ioe2-word-classes,cascaded"
THRESHOLDS = (0.3, 0.5)


def member_options(name, corpus, data):
    """``make_tagger`` options of member ``name`` (named, as a member of a combination).

    On JNLPBA a member that reads the ``pos`` column (NERBio's features, the
    pairwise SVM's) gets the jackknifed POS tagger: the bundled tagger was
    trained on GENIA POS, whose abstracts are JNLPBA training abstracts (178 of
    the 200 dev abstracts), so fit *and* dev sentences are tagged by a fold
    tagger that never saw them.
    """
    from skbioner.pipelines._presets import reads_pos  # private: make_tagger's POS rule

    options = {**MEMBERS[name], "name": name}
    if corpus == "jnlpba" and (options.get("pos") or reads_pos(options["model"],
                                                               options.get("model_params"))):
        options["pos_jackknife"] = str(harness.data_root(data) / "genia-pos" / "train.tsv")
    return options


def resolved_params(options):
    """Every parameter of the unfitted ``make_tagger(**options)``, deep, as plain JSON values.

    What a preset resolves to (NERBio's conjunctions, the online CRF's C,
    a second pass's weights...), not only the options that name it: a preset
    changed in the code changes this, so a cached record of the old preset is
    not read as the new one's.  Estimators stand as their class name (their
    own parameters are keys of their own); memory addresses are dropped and
    sets sorted, so the same options give the same value in any process.
    """
    from skbioner.pipelines import make_tagger

    tagger = make_tagger(**{k: v for k, v in options.items() if k != "name"})
    return {k: _plain(v) for k, v in sorted(tagger.get_params(deep=True).items())}


def _plain(value):
    import re

    if hasattr(value, "get_params"):
        return type(value).__qualname__
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(map(_plain, value), key=repr)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


def _cache_path(cache, name, corpus, data, tag_passes):
    """Where member ``name``'s dev record is kept (keyed by everything that makes it)."""
    return _keyed_path(cache, f"member-{name}", member_options(name, corpus, data), corpus,
                       tag_passes)


def _keyed_path(cache, stem, options, corpus, tag_passes):
    """``cache/corpus/stem-DIGEST.json``, the digest of everything that makes the record.

    The key holds the ``make_tagger`` options *and* what they resolve to
    (:func:`resolved_params`): a record made before a preset changed is not reused.
    """
    import hashlib
    import json
    from pathlib import Path

    key = json.dumps([options, resolved_params(options), corpus, tag_passes], sort_keys=True)
    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
    return Path(cache) / corpus / f"{stem}-{digest}.json"


def member_on_dev(name, corpus, args):
    """Member ``name``'s dev record: trained in a fresh process, or read from ``--cache``.

    A :data:`DERIVED` member comes from its parent's training (the parent's
    record is kept too).
    """
    import json

    def path_of(n):
        return None if args.cache is None else _cache_path(args.cache, n, corpus, args.data,
                                                           args.tag_passes)

    path = path_of(name)
    if path is not None and path.exists():
        print(f"member {name}: dev record read from {path}", file=sys.stderr, flush=True)
        return json.loads(path.read_text(encoding="utf-8"))
    parent = DERIVED[name][0] if name in DERIVED else name
    derived = [n for n, (p, _) in DERIVED.items() if p == parent]
    res = harness.isolated(run_member, parent, corpus, args.data, args.tag_passes, derived)
    records = {parent: res, **res.pop("derived")}
    for n, rec in records.items():
        if path_of(n) is not None:
            path_of(n).parent.mkdir(parents=True, exist_ok=True)
            tmp = path_of(n).with_suffix(".tmp")
            tmp.write_text(json.dumps(rec), encoding="utf-8")
            tmp.replace(path_of(n))
    return records[name]


#: members read off another member's fitted model: name -> (that member, parameters of its
#: final step).  A pairwise SVM fitted with ``decoding="viterbi"`` holds the greedy preset's
#: very models (same data, same seeds; the sigmoids' models are extra), so one training
#: gives both (tests/ensemble/test_diverse_members.py checks the identity); the greedy
#: member's training time is then the Viterbi fit's.
DERIVED = {"pairwise-svm": ("pairwise-svm-viterbi", {"decoding": "greedy"})}


def run_member(name, corpus, data, tag_passes, derived=()):
    """Child process: member ``name`` trained on ``fit``, scored on ``dev``, its entities.

    ``derived``: names of :data:`DERIVED` members read off this one; their
    records are returned under ``"derived"``.
    """
    from skbioner.base import final_estimator
    from skbioner.cli import train_command
    from skbioner.pipelines import make_tagger

    train, gold = harness.load(corpus, "fit", data), harness.load(corpus, "dev", data)
    options = member_options(name, corpus, data)
    options.pop("name")
    model = make_tagger(**options)
    with harness.Stopwatch() as sw:
        model.fit(train.X, train.y)
    out = {**_dev_record(model, gold, data, tag_passes), "train_seconds": round(sw.wall, 1),
           "train_cpu_seconds": round(sw.cpu, 1),
           "cli": train_command(train_file=f"{corpus}/fit", **options), "derived": {}}
    for other in derived:
        parent, params = DERIVED[other]
        assert parent == name, (other, parent, name)
        final = final_estimator(model)  # the fitted model, its final step's parameters changed
        saved = final.get_params()
        final.set_params(**params)
        opts = member_options(other, corpus, data)
        opts.pop("name")
        out["derived"][other] = {
            **_dev_record(model, gold, data, tag_passes),
            "train_seconds": out["train_seconds"], "train_cpu_seconds": out["train_cpu_seconds"],
            "train_shared_with": name, "cli": train_command(train_file=f"{corpus}/fit", **opts)}
        final.set_params(**{k: saved[k] for k in params})
    return out


def _dev_record(model, gold, data, tag_passes):
    """A fitted member's dev scores, tagging speed, model size and entities."""
    from skbioner.ensemble import tagger_outputs

    pred, speed = harness.tagging_speed(model, gold.X, passes=tag_passes)
    entities = [list(map(tuple, s)) for s in tagger_outputs(model, gold.X,
                                                            marginals=False).entities]
    return {**harness.evaluate(gold, pred, data), "tag_tokens_per_second": round(speed),
            "model_mb": round(harness.model_size_mb(model), 2), "entities": entities}


def _labels(spans, X):
    from skbioner.schemes import spans_to_labels

    return [spans_to_labels([sp[:3] for sp in s], len(x), "IOB2") for s, x in zip(spans, X)]


def _exact_f1(gold_spans, spans):
    """Exact F1 of ``spans`` (per sentence) against gold span sets: the official exact count."""
    from skbioner.metrics import ClassScore

    tp = n_pred = 0
    for g, s in zip(gold_spans, spans, strict=True):
        pred = {tuple(sp[:3]) for sp in s}
        n_pred += len(pred)
        tp += len(g & pred)
    return ClassScore(sum(map(len, gold_spans)), n_pred, {"exact": tp}).exact.f1


def vote_grid(names, outputs, gold, data, rescore=10, beam=None, seeds=()):
    """Every vote over the members' dev entities, scored on dev, best first.

    ``outputs[name]``: a member's dev record (with ``entities`` and
    ``per_class_exact_f1``).  Returns a list of dicts with the vote's
    settings (``members``, ``voting``, ``threshold``, ``weighting``,
    ``weights``) and dev ``exact_f1``; the best ``rescore`` rows also carry
    every score of :func:`harness.evaluate` (the official scorer, which
    must give the same exact F1 as the grid's span count).

    ``beam``: instead of every subset of two or more members (2^n of them),
    a beam search over subsets by size: every pair, then the ``beam`` best
    subsets of each size (a subset's score: its best vote) grown by each
    other member, up to all members.  ``seeds`` (member lists, e.g. the
    previous dev choice) join the subsets of their size before the beam
    keeps its best, so the search scores them and what grows from them.
    """
    from skbioner.ensemble import member_weights, vote_spans
    from skbioner.schemes import labels_to_spans

    types = sorted({t for y in gold.y for t in (lab[2:] for lab in y if lab != "O")})
    gold_spans = [set(labels_to_spans(y)) for y in gold.y]

    def vote(subset, weights, voting, threshold):
        table = member_weights(weights, len(subset), types)
        return [vote_spans([outputs[n]["entities"][i] for n in subset], table, threshold,
                           voting == "soft") for i in range(len(gold.X))]

    def votes_of(subset):
        f1 = [{t: round(outputs[n]["per_class_exact_f1"].get(t, 0.0), 4) for t in types}
              for n in subset]
        out = []
        for weighting, weights in (("equal", None), ("per-type dev F1", f1)):
            for voting, threshold in itertools.product(("hard", "soft"), THRESHOLDS):
                spans = vote(subset, weights, voting, threshold)
                out.append({"members": list(subset), "voting": voting,
                            "threshold": threshold, "weighting": weighting,
                            "weights": weights, "exact_f1": _exact_f1(gold_spans, spans)})
        return out

    if beam is not None:
        rows = _beam_search(names, beam, seeds, votes_of)
    else:
        rows = [row for k in range(2, len(names) + 1)
                for subset in itertools.combinations(names, k) if not _one_model_twice(subset)
                for row in votes_of(subset)]
    rows.sort(key=lambda r: -r["exact_f1"])
    for row in rows[:rescore]:
        spans = vote(row["members"], row["weights"], row["voting"], row["threshold"])
        score = harness.evaluate(gold, _labels(spans, gold.X), data)
        if abs(score["exact_f1"] - row["exact_f1"]) > 1e-9:
            raise AssertionError(f"span count {row['exact_f1']} != official {score['exact_f1']}")
        row.update(score)
    return rows


def _one_model_twice(subset):
    """Whether ``subset`` holds a :data:`DERIVED` member and its parent (one model twice)."""
    return any(n in subset and DERIVED[n][0] in subset for n in DERIVED)


def _beam_search(names, beam, seeds, votes_of):
    """:func:`vote_grid`'s beam search over member subsets: the rows of every subset scored.

    Every pair is scored, then the ``beam`` best subsets of each size (a
    subset's score: its best vote; ties to the earlier members in ``names``)
    each grow by every other member; ``seeds`` join the subsets of their size.
    """
    order = {n: i for i, n in enumerate(names)}
    unknown = [n for s in seeds for n in s if n not in order]
    if unknown:
        raise ValueError(f"seed votes name members that are not candidates: {unknown}")

    def canonical(subset):
        return tuple(sorted(set(subset), key=order.__getitem__))

    seeds = [canonical(s) for s in seeds]
    rows, scored = [], {}
    level = list(itertools.combinations(names, 2))
    for k in range(2, len(names) + 1):
        level = {s for s in level + [s for s in seeds if len(s) == k]
                 if not _one_model_twice(s)}
        if not level:
            break
        for subset in sorted(level, key=lambda s: [order[n] for n in s]):
            if subset not in scored:
                votes = votes_of(subset)
                rows += votes
                scored[subset] = max(r["exact_f1"] for r in votes)
        kept = sorted(level, key=lambda s: (-scored[s], [order[n] for n in s]))[:beam]
        print(f"vote search: {len(scored)} subsets scored; best of {k}: "
              f"{scored[kept[0]]:.4f} {'+'.join(kept[0])}", file=sys.stderr, flush=True)
        level = [canonical(s + (n,)) for s in kept for n in names if n not in s]
    return rows


def combination_options(kind, members, corpus, data, settings=None, stack_cv=3):
    """``make_tagger`` options of a vote or a stack of ``members`` (names)."""
    options = {"model": kind, "members": [member_options(n, corpus, data) for n in members]}
    if kind == "vote":
        settings = settings or {}
        params = {"voting": settings.get("voting", "hard"),
                  "threshold": settings.get("threshold", 0.5)}
        if settings.get("weights") is not None:
            params["weights"] = settings["weights"]
        options["combination_params"] = params
    else:
        options["combination_params"] = {"cv": stack_cv}
    return options


def stack_on_dev(members, corpus, args):
    """The stack of ``members`` (names) trained on ``fit`` and scored on ``dev``.

    Kept in ``--cache`` like a member's record, keyed by what its options
    resolve to.
    """
    import json

    opts = combination_options("stack", members, corpus, args.data, stack_cv=args.stack_cv)
    path = None
    if args.cache is not None:
        path = _keyed_path(args.cache, f"stack-{'+'.join(members)}", opts, corpus,
                           args.tag_passes)
        if path.exists():
            print(f"stack {'+'.join(members)}: dev record read from {path}", file=sys.stderr,
                  flush=True)
            return json.loads(path.read_text(encoding="utf-8"))
    res = harness.isolated(run_combination, opts, corpus, "dev", args.data, args.tag_passes)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".tmp").write_text(json.dumps(res), encoding="utf-8")
        path.with_suffix(".tmp").replace(path)
    return res


def run_combination(options, corpus, split, data, tag_passes):
    """Child process: a combination trained on ``fit``/``train``, scored on ``dev``/``test``.

    Also each member alone on ``split``: its entities inside the fitted combination.
    """
    from skbioner.base import final_estimator
    from skbioner.cli import train_command
    from skbioner.ensemble import tagger_outputs
    from skbioner.pipelines import make_tagger

    fit_split = {"test": "train", "dev": "fit"}[split]
    train, gold = harness.load(corpus, fit_split, data), harness.load(corpus, split, data)
    model = make_tagger(**options)
    with harness.Stopwatch() as sw:
        model.fit(train.X, train.y)
    pred, speed = harness.tagging_speed(model, gold.X, passes=tag_passes)
    combo = final_estimator(model)
    members = {}
    for name, est in combo.named_estimators_.items():
        spans = tagger_outputs(est, gold.X, marginals=False).entities
        score = harness.evaluate(gold, _labels(spans, gold.X), data)
        members[name] = {k: score[k] for k in ("exact_f1", "exact_f1_unseen") if k in score}
    seconds = getattr(combo, "fit_seconds_", None)
    return {**harness.evaluate(gold, pred, data), "train_seconds": round(sw.wall, 1),
            "train_cpu_seconds": round(sw.cpu, 1), "tag_tokens_per_second": round(speed),
            "model_mb": round(harness.model_size_mb(model), 2), "members_alone": members,
            "member_fit_seconds": _rounded(seconds),
            "train_sentences": len(train),
            "cli": train_command(train_file=f"{corpus}/{fit_split}", **options)}


def _rounded(seconds):
    if isinstance(seconds, dict):  # a stack's: per member and "final"
        return {k: round(v, 1) for k, v in seconds.items()}
    return None if seconds is None else [round(v, 1) for v in seconds]


def _line(corpus, split, name, res):
    extra = (f" (unseen abstracts {res['exact_f1_unseen']:.4f})"
             if "exact_f1_unseen" in res else "")
    speed = res.get("tag_tokens_per_second")
    tail = (f" | train {res['train_seconds']:.1f} s | tag {speed:,} tok/s | "
            f"{res['model_mb']:.1f} MB" if speed else "")
    print(f"{corpus:<11} {split:<4} {name:<60} exact {res['exact_f1']:.4f}{extra}{tail}",
          file=sys.stderr, flush=True)


def _strip(res):
    return {k: v for k, v in res.items() if k != "entities"}


def one_corpus(corpus, names, args):
    """Steps 1-4 on one corpus: its records and the chosen combination."""
    records, outputs = [], {}
    gold = harness.load(corpus, "dev", args.data)
    stacks_given = [m.split("+") for m in args.stack_members]
    stack_dev = {}  # members -> the stack's dev record
    for members in stacks_given:  # stacks named on the command line: they need no vote
        res = stack_dev[tuple(members)] = stack_on_dev(members, corpus, args)
        _line(corpus, "dev", f"stack {'+'.join(members)}", res)
        records.append(harness.record("combination", f"stack {'+'.join(members)}", corpus,
                                      "dev", **res))
    for name in names:  # 1. members alone on dev
        outputs[name] = member_on_dev(name, corpus, args)
        _line(corpus, "dev", f"member {name}", outputs[name])
        records.append(harness.record("combination", f"member {name}", corpus, "dev",
                                      **_strip(outputs[name])))
    if args.members_only:
        return records, None
    rows = vote_grid(names, outputs, gold, args.data, rescore=args.show,  # 2. votes on dev
                     beam=args.beam, seeds=[m.split("+") for m in args.seed_vote])
    for row in rows[:args.show]:
        _line(corpus, "dev", f"vote {'+'.join(row['members'])} {row['voting']} "
              f">{row['threshold']} {row['weighting']}", row)
    best = rows[0]
    top = [{k: r[k] for k in ("members", "voting", "threshold", "weighting", "exact_f1")}
           for r in rows[:args.show]]
    records.append(harness.record("combination", "vote (best on dev)", corpus, "dev",
                                  grid_size=len(rows), beam=args.beam, top_votes=top, **best))
    chosen = ("vote", best["members"],
              combination_options("vote", best["members"], corpus, args.data, best))
    chosen_f1 = best["exact_f1"]
    stacks = list(stacks_given)
    if args.stack and best["members"] not in stacks:  # 3. the stack of the vote's members
        stacks.insert(0, best["members"])
    for members in stacks:  # 3. stacks on dev (the given ones were scored above)
        opts = combination_options("stack", members, corpus, args.data, stack_cv=args.stack_cv)
        if tuple(members) not in stack_dev:
            stack_dev[tuple(members)] = stack_on_dev(members, corpus, args)
        res = stack_dev[tuple(members)]
        if members not in stacks_given:
            _line(corpus, "dev", f"stack {'+'.join(members)}", res)
            records.append(harness.record("combination", f"stack {'+'.join(members)}", corpus,
                                          "dev", **res))
        if res["exact_f1"] > chosen_f1:
            chosen, chosen_f1 = ("stack", members, opts), res["exact_f1"]
    kind, members, opts = chosen
    if not args.no_test:  # 4. the chosen combination on test, once
        res = harness.isolated(run_combination, opts, corpus, "test", args.data,
                               args.tag_passes)
        _line(corpus, "test", f"{kind} {'+'.join(members)}", res)
        records.append(harness.record("combination", f"{kind} (chosen on dev)", corpus, "test",
                                      headline=True, **res))
        for name, score in res["members_alone"].items():
            _line(corpus, "test", f"member {name}", score)
    return records, {"kind": kind, "members": members, "dev_exact_f1": chosen_f1,
                     "settings": opts["combination_params"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap)
    ap.add_argument("--members", default=DEFAULT_MEMBERS,
                    help=f"candidate members, comma-separated, from {', '.join(MEMBERS)}")
    ap.add_argument("--stack", action="store_true",
                    help="also score the stack of the chosen vote's members on dev")
    ap.add_argument("--stack-members", action="append", default=[], metavar="A+B",
                    help="also score on dev the stack of these members (e.g. "
                         "online-crf+nerbio: `skbioner train --two-pass --first-pass "
                         "online-crf,nerbio`), a candidate beside the vote; repeatable; "
                         "scored with --members-only too (it needs no vote)")
    ap.add_argument("--stack-cv", type=int, default=3, help="the stack's out-of-fold folds")
    ap.add_argument("--no-test", action="store_true", help="dev only: choose, do not report")
    ap.add_argument("--members-only", action="store_true",
                    help="only train the members and score them on dev (fill --cache)")
    ap.add_argument("--cache", default=None,
                    help="directory keeping each member's dev record (entities, scores, "
                         "times), reused by later runs with the same member options")
    ap.add_argument("--beam", type=int, default=None, metavar="B",
                    help="search the member subsets by beam (every pair, then the B best "
                         "subsets of each size grown by one member) instead of all 2^n; "
                         "for many candidates")
    ap.add_argument("--seed-vote", action="append", default=[], metavar="A+B",
                    help="with --beam: also score this subset (e.g. the previous dev "
                         "choice) and grow the beam from it; repeatable")
    ap.add_argument("--show", type=int, default=10, help="votes shown on stderr, best first")
    ap.add_argument("--tag-passes", type=int, default=2,
                    help="timed tagging passes after the first")
    args = ap.parse_args()
    names = [n.strip() for n in args.members.split(",") if n.strip()]
    unknown = [n for n in names if n not in MEMBERS]
    unknown += [n for m in args.stack_members for n in m.split("+") if n not in MEMBERS]
    if unknown or len(names) < 2:
        ap.error(f"give two or more members from {list(MEMBERS)}; unknown: {unknown}")
    records, chosen = [], {}
    for corpus in harness.corpus_names(args.corpora):
        recs, chosen[corpus] = one_corpus(corpus, names, args)
        records += recs
    harness.finish(records, args, {"chosen": chosen})


if __name__ == "__main__":
    main()
