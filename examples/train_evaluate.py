"""Train an OnlinePACRF tagger on the bundled JNLPBA sample and print the official report.

Shows the basic workflow: load the bundled sample (250 training and 51 test abstracts of
JNLPBA 2004), build a scikit-learn ``Pipeline`` (``TokenFeaturizer`` -> ``OnlinePACRF``),
fit it on the training part, predict the test part and score it with the official JNLPBA
2004 counting (``entity_report(...).to_text()`` prints the layout of ``evalIOB2.pl``).

Run::

    python examples/train_evaluate.py [OUTDIR]

With ``OUTDIR`` the gold test part and the predictions are also written as JNLPBA column
files (``OUTDIR/gold.iob2``, ``OUTDIR/predictions.iob2``: the same file with the predicted
labels) and the report as JSON (``OUTDIR/report.json``); rescoring the files
(``skbioner evaluate OUTDIR/gold.iob2 OUTDIR/predictions.iob2``, or
``skbioner.metrics.evaluate_files`` as done here) gives the same numbers.  Takes about 10 s.
"""

import argparse
import time
from pathlib import Path

from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.io import write_columns
from skbioner.metrics import entity_report, evaluate_files
from skbioner.models import OnlinePACRF


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        help="directory for predictions.iob2 and report.json (optional)")
    args = parser.parse_args(argv)

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    print(f"train: {len(train.X)} sentences, {len(set(train.doc_ids))} abstracts, "
          f"{sum(map(len, train.X))} tokens")
    print(f"test:  {len(test.X)} sentences, {len(set(test.doc_ids))} abstracts, "
          f"{sum(map(len, test.X))} tokens")

    # The settings of `skbioner train --model online-crf`: BIES tags with jointly trained IO
    # weights, Chan/Settles features seen at least 3 times.
    model = Pipeline([
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                              random_state=0)),
    ])
    t0 = time.perf_counter()
    model.fit(train.X, train.y)
    t1 = time.perf_counter()
    pred = model.predict(test.X)
    t2 = time.perf_counter()
    n_features = model.named_steps["model"].n_features_in_
    print(f"trained in {t1 - t0:.1f} s ({n_features} features); "
          f"tagged the test part in {t2 - t1:.2f} s")

    report = entity_report(test.y, pred)
    print(report.to_text(), end="")
    print(f"Exact-match F1 (official): {report.f1('exact'):.4f}")

    if args.outdir is not None:
        args.outdir.mkdir(parents=True, exist_ok=True)
        gold_path, pred_path = args.outdir / "gold.iob2", args.outdir / "predictions.iob2"
        write_columns(gold_path, test)  # byte for byte the bundled test part
        write_columns(pred_path, test, y=pred)
        (args.outdir / "report.json").write_text(report.to_json(indent=2) + "\n")
        print(f"wrote {gold_path}, {pred_path} and {args.outdir / 'report.json'}")
        rescored = evaluate_files(gold_path, pred_path)
        print(f"Exact-match F1 rescored from the files: {rescored.f1('exact'):.4f}")
        if rescored.to_dict() != report.to_dict():
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
