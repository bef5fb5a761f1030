"""Train the default model on the bundled JNLPBA sample and show what it does.

Loads the sample shipped with the package (250 training and 51 test abstracts
of JNLPBA 2004), trains, scores the test part with the official JNLPBA
counting, prints the report and tags one example sentence.
"""

import time

NAME = "demo"
HELP = "train on the bundled JNLPBA sample, evaluate, and tag an example"

EXAMPLE = (
    "Activation of NF-kappa B by interleukin-2 requires the IL-2 receptor beta chain "
    "in human T lymphocytes ."
)


def add_arguments(p):
    p.add_argument("--sentence", default=EXAMPLE,
                   help="a whitespace-tokenised sentence to tag (default: an example)")


def run(args):
    from ..datasets import load_jnlpba_sample
    from ..metrics import entity_report
    from ..pipelines import make_tagger
    from ..schemes import labels_to_spans

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    n_tok = sum(map(len, train.X))
    model = make_tagger(verbose=1)  # skbioner train's default: the online-crf preset
    name = type(model[-1]).__name__
    print(f"Training {name} on the bundled sample: "
          f"{len(train.X)} sentences, {n_tok} tokens ...")
    t0 = time.perf_counter()
    model.fit(train.X, train.y)
    t1 = time.perf_counter()
    pred = model.predict(test.X)
    t2 = time.perf_counter()
    n_test = sum(map(len, test.X))
    print(f"trained in {t1 - t0:.1f} s; tagged {n_test} test tokens in {t2 - t1:.2f} s")
    report = entity_report(test.y, pred)
    print(report.to_text(), end="")
    words = args.sentence.split()
    labels = model.predict([words])[0]
    print("Example:", args.sentence)
    for typ, s, e in labels_to_spans(labels):
        print(f"  {typ:<10} {' '.join(words[s:e])}")
    return 0
