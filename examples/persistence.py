"""Save a fitted pipeline safely, load it back and check it predicts identically.

``skbioner.io.save_model`` writes a fitted pipeline (featurizer and tagger) in the skops
format, which ``load_model`` reads without running any code from the file (a pickle --
what ``joblib.dump`` writes -- runs whatever it contains when loaded); ``skbioner predict``
and ``skbioner tag`` read the same files.  A ``.joblib`` path still writes a pickle, which
``load_model`` opens only with ``allow_pickle=True``.  The example also ships a smaller
copy: ``OnlinePACRF.sparsify()`` stores the weights as a sparse float32 matrix and drops
the training state (training cannot continue afterwards); call ``densify()`` after loading
to tag at full speed.

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

from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.io import ModelFileError, load_model, save_model
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

    # 1. The whole fitted pipeline, as is, in the safe format.
    path = outdir / "model.skops"
    t0 = time.perf_counter()
    save_model(model, path)
    t1 = time.perf_counter()
    loaded = load_model(path)
    t2 = time.perf_counter()
    after = loaded.predict(test.X)
    print(f"{path.name}: {path.stat().st_size / 1e6:.2f} MB "
          f"(dump {t1 - t0:.2f} s, load {t2 - t1:.2f} s)")
    print(f"identical predictions after loading: {after == before}")
    if after != before:
        return 1

    # 2. A pickle, for tools that want one: refused unless explicitly allowed.
    pickle_path = save_model(model, outdir / "model.joblib")
    try:
        load_model(pickle_path)
    except ModelFileError as exc:
        print(f"refused by default: {str(exc).split(': ', 1)[1][:60]}...")
    same = load_model(pickle_path, allow_pickle=True).predict(test.X) == before
    print(f"{pickle_path.name}: {pickle_path.stat().st_size / 1e6:.2f} MB (a pickle; "
          f"identical predictions with allow_pickle=True: {same})")

    # 3. A sparsified copy to ship (the fitted `model` itself stays trainable).
    small = copy.deepcopy(model)
    small.named_steps["model"].sparsify()
    small_path = outdir / "model-sparse.skops"
    save_model(small, small_path)
    shipped = load_model(small_path)
    shipped.named_steps["model"].densify()
    shipped_pred = shipped.predict(test.X)
    n_diff = sum(a != b for s, t in zip(shipped_pred, before) for a, b in zip(s, t))
    print(f"{small_path.name}: {small_path.stat().st_size / 1e6:.2f} MB "
          f"(sparse float32 weights, no training state)")
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
