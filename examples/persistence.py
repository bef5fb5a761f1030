"""Save a fitted pipeline with joblib, load it back and check it predicts identically.

A fitted skbioner pipeline (featurizer and tagger) is an ordinary picklable scikit-learn
object: ``joblib.dump`` / ``joblib.load`` are all it takes, and ``skbioner predict`` and
``skbioner tag`` read the same files.  The example also ships a smaller copy:
``OnlinePACRF.sparsify()`` stores the weights as a sparse float32 matrix and drops the
training state (training cannot continue afterwards); call ``densify()`` after loading to
tag at full speed.

Run::

    python examples/persistence.py [OUTDIR]

The model files are written to ``OUTDIR`` (default: a temporary directory, removed at the
end).  Takes about 10 s.
"""

import argparse
import copy
import tempfile
import time
from pathlib import Path

import joblib
from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import OnlinePACRF


def run(outdir: Path):
    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    model = Pipeline([
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                              random_state=0)),
    ])
    model.fit(train.X, train.y)
    before = model.predict(test.X)

    # 1. The whole fitted pipeline, as is.
    path = outdir / "model.joblib"
    t0 = time.perf_counter()
    joblib.dump(model, path)
    t1 = time.perf_counter()
    loaded = joblib.load(path)
    t2 = time.perf_counter()
    after = loaded.predict(test.X)
    print(f"{path.name}: {path.stat().st_size / 1e6:.2f} MB "
          f"(dump {t1 - t0:.2f} s, load {t2 - t1:.2f} s)")
    print(f"identical predictions after loading: {after == before}")
    if after != before:
        return 1

    # 2. A compressed, sparsified copy to ship (the fitted `model` itself stays trainable).
    small = copy.deepcopy(model)
    small.named_steps["model"].sparsify()
    sparse_path = outdir / "model-sparse.joblib"
    joblib.dump(small, sparse_path)
    small_path = outdir / "model-sparse.joblib.gz"
    joblib.dump(small, small_path, compress=3)
    shipped = joblib.load(small_path)
    shipped.named_steps["model"].densify()
    shipped_pred = shipped.predict(test.X)
    n_diff = sum(a != b for s, t in zip(shipped_pred, before) for a, b in zip(s, t))
    print(f"{sparse_path.name}: {sparse_path.stat().st_size / 1e6:.2f} MB "
          f"(sparse float32 weights, no training state)")
    print(f"{small_path.name}: {small_path.stat().st_size / 1e6:.2f} MB (the same, compressed)")
    print(f"tokens tagged differently by the sparsified copy: {n_diff} "
          f"(float32 rounding of the weights)")
    print(f"exact F1: original {entity_f1_score(test.y, before):.4f}, "
          f"loaded {entity_f1_score(test.y, after):.4f}, "
          f"sparsified {entity_f1_score(test.y, shipped_pred):.4f}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        help="directory for the model files (default: a temporary directory)")
    args = parser.parse_args(argv)
    if args.outdir is not None:
        args.outdir.mkdir(parents=True, exist_ok=True)
        status = run(args.outdir)
        print(f"model files in {args.outdir}")
        return status
    with tempfile.TemporaryDirectory() as tmp:
        return run(Path(tmp))


if __name__ == "__main__":
    raise SystemExit(main())
