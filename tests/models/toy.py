"""A tiny corpus every model must learn perfectly (shared by the model tests)."""

import numpy as np

GENES = ["IL-2", "NF-kappaB", "p53", "TNF", "GATA-1", "c-myc"]
CELLS = ["T", "B", "HeLa", "Jurkat"]


def toy_sentences(n=40, seed=0, with_singletons=False):
    """``n`` sentences "The <gene> gene in <cell> cells ." with DNA and cell_type entities.

    ``with_singletons`` adds one sentence with adjacent single-token entities
    (exercises S / E labels).
    """
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n):
        X.append(["The", str(rng.choice(GENES)), "gene", "in", str(rng.choice(CELLS)),
                  "cells", "."])
        y.append(["O", "B-DNA", "I-DNA", "O", "B-cell_type", "I-cell_type", "O"])
    if with_singletons:
        X.append(["p53", "IL-2", "bind", "."])
        y.append(["B-protein", "B-protein", "O", "O"])
    return X, y
