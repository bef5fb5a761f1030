"""Tune ``C`` with GridSearchCV, entity-F1 scoring and folds that never split an abstract.

String scorers such as ``"f1"`` cannot score lists of label lists, so the search uses
skbioner's ``entity_f1_scorer`` (official exact-match F1) and, as a second metric,
``make_entity_scorer(match="left")``.  ``GroupKFold`` with ``groups=doc_ids`` keeps all the
sentences of an abstract in the same fold: sentences of one abstract share entity names, and
splitting them would leak test entities into training.  Only the training part is used for
tuning; the refitted best model is then scored once on the test part.

Run::

    python examples/grid_search.py [OUTDIR] [--n-jobs N]

With ``OUTDIR`` the cross-validation table is written to ``OUTDIR/cv_results.csv``.
``--n-jobs 2`` fits the folds in two worker processes (joblib); on this small sample and a
2-core machine it saves little, so the default is 1.  Takes about 15-20 s.
"""

import argparse
import csv
import time
from pathlib import Path

from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score, entity_f1_scorer, make_entity_scorer
from skbioner.models import OnlinePACRF


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        help="directory for cv_results.csv (optional)")
    parser.add_argument("--n-jobs", type=int, default=1, help="GridSearchCV n_jobs")
    args = parser.parse_args(argv)

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    pipe = Pipeline([
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), max_iter=5,
                              random_state=0)),
    ])
    search = GridSearchCV(
        pipe,
        param_grid={"model__C": [0.01, 0.1]},
        scoring={"exact_f1": entity_f1_scorer, "left_f1": make_entity_scorer(match="left")},
        refit="exact_f1",          # the refitted model maximises the official exact F1
        cv=GroupKFold(n_splits=3),
        n_jobs=args.n_jobs,
    )
    t0 = time.perf_counter()
    search.fit(train.X, train.y, groups=train.doc_ids)
    print(f"{len(search.cv_results_['params'])} settings x 3 folds (by abstract) + refit "
          f"in {time.perf_counter() - t0:.1f} s")

    res = search.cv_results_
    print(f"{'params':<22} {'exact F1':>16} {'left F1':>16}  fit s")
    for i, params in enumerate(res["params"]):
        print(f"{params!s:<22} "
              f"{res['mean_test_exact_f1'][i]:.4f} +- {res['std_test_exact_f1'][i]:.4f} "
              f"{res['mean_test_left_f1'][i]:.4f} +- {res['std_test_left_f1'][i]:.4f}"
              f"  {res['mean_fit_time'][i]:5.1f}")
    print(f"Best params: {search.best_params_}")
    print(f"Best cross-validated exact F1: {search.best_score_:.4f}")
    test_f1 = entity_f1_score(test.y, search.predict(test.X))
    print(f"Test exact F1 of the refitted best model: {test_f1:.4f}")

    if args.outdir is not None:
        args.outdir.mkdir(parents=True, exist_ok=True)
        path = args.outdir / "cv_results.csv"
        keys = ["params", "mean_test_exact_f1", "std_test_exact_f1", "rank_test_exact_f1",
                "mean_test_left_f1", "std_test_left_f1", "mean_fit_time"]
        with open(path, "w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(keys)
            for i in range(len(res["params"])):
                writer.writerow([res[k][i] for k in keys])
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
