"""Plot the per-class exact-match F1 of a tagger as a bar chart (PNG, matplotlib).

Trains ``TokenFeaturizer("chan") -> OnlinePACRF`` on the bundled JNLPBA sample, scores the
test part with ``entity_report`` and draws one bar per entity class (exact-match F1 with
the official JNLPBA counting; the class's number of gold entities under its name), with the
overall F1 as a dashed line.  Uses matplotlib's non-interactive ``Agg`` backend, so it runs
without a display.

Run::

    python examples/per_class_f1_plot.py [OUTPUT]

``OUTPUT`` is the PNG file to write, or a directory to write ``per_class_f1.png`` into
(default: ``per_class_f1.png`` in the current directory).  Needs matplotlib
(``pip install matplotlib``).  Takes about 10 s.
"""

import argparse
from pathlib import Path

import matplotlib
from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_report
from skbioner.models import OnlinePACRF

DEFAULT_NAME = "per_class_f1.png"


def output_path(arg):
    if arg is None:
        return Path(DEFAULT_NAME)
    path = Path(arg)
    if path.is_dir() or path.suffix.lower() != ".png":
        path.mkdir(parents=True, exist_ok=True)
        return path / DEFAULT_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?",
                        help=f"PNG file or directory (default: ./{DEFAULT_NAME})")
    args = parser.parse_args(argv)
    out = output_path(args.output)

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    model = Pipeline([
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                              random_state=0)),
    ])
    model.fit(train.X, train.y)
    report = entity_report(test.y, model.predict(test.X))

    classes = sorted(c for c, s in report.per_class.items() if s.n_gold > 0)
    f1 = [report.f1("exact", c) for c in classes]
    overall = report.f1("exact")
    print(f"{'class':<10} {'gold':>5} {'answers':>8} {'exact F1':>9}")
    for c, f in zip(classes, f1):
        s = report.per_class[c]
        print(f"{c:<10} {s.n_gold:>5} {s.n_pred:>8} {f:9.4f}")
    print(f"{'overall':<10} {report.overall.n_gold:>5} {report.overall.n_pred:>8} "
          f"{overall:9.4f}")

    matplotlib.use("Agg")  # no display needed; must come before importing pyplot
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    bars = ax.bar([f"{c}\n(n={report.per_class[c].n_gold})" for c in classes], f1,
                  color="tab:blue")
    ax.bar_label(bars, fmt="%.3f", padding=2)
    ax.axhline(overall, color="tab:red", linestyle="--", label=f"overall {overall:.3f}")
    ax.set_ylim(0, 1)
    ax.set_ylabel("exact-match F1 (official JNLPBA counting)")
    ax.set_title("OnlinePACRF on the JNLPBA sample: per-class F1")
    ax.legend(loc="upper right")
    fig.savefig(out, dpi=100)
    plt.close(fig)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
