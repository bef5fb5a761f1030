"""Re-create the word classes shipped with the package (skbioner/annotate/data/).

    python scripts/make_word_classes.py --data ../shared/data

Fits Brown clusters and the k-means classes of PPMI-SVD embeddings (the settings chosen on
the development splits, ``SETTINGS``; docs/lab/word-classes.md) on
``unlabeled/biomed-ccby-sentences.txt.gz`` -- 10.8M tokens of open-access text whose every
article is CC BY (``unlabeled/biomed-ccby-sources.tsv``), and which holds no sentence of
the JNLPBA, BioNLP13CG or BC5CDR test files -- and writes

* ``word_classes.tsv.gz``: the class table (``skbioner.annotate.WordClassAnnotator``);
* ``word_classes_sources.tsv.gz``: every source article and its licence (the attribution
  CC BY requires).

The text's SHA-256 is printed for the data README (tests/annotate/test_word_classes.py
checks the named text against the test files).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "skbioner" / "annotate" / "data"
TEXT = "biomed-ccby-sentences.txt.gz"
SOURCES = "biomed-ccby-sources.tsv"
#: chosen on the JNLPBA development split and BioNLP13CG's devel file (docs/lab/word-classes.md)
SETTINGS = {"brown": 256, "embedding": (64, 256, 1024), "n_components": 100, "window": 2,
            "min_count": 3, "normalize": "lower-digits"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()

    from skbioner.annotate import BrownClusterer, EmbeddingClusterer
    from skbioner.io import read_tokenized, write_word_classes

    unlabeled = Path(args.data) / "unlabeled"
    text = unlabeled / TEXT
    sha = hashlib.sha256(text.read_bytes()).hexdigest()
    t0 = time.perf_counter()
    X = read_tokenized(text)
    s = SETTINGS
    tables = [BrownClusterer(s["brown"], min_count=s["min_count"], normalize=s["normalize"],
                             verbose=1).fit(X),
              EmbeddingClusterer(s["embedding"], n_components=s["n_components"],
                                 window=s["window"], min_count=s["min_count"],
                                 normalize=s["normalize"], random_state=0, verbose=1).fit(X)]
    seconds = time.perf_counter() - t0
    out = Path(args.out)
    notes = [f"fitted by scripts/make_word_classes.py on unlabeled/{TEXT} "
             f"({sum(map(len, X)):,} tokens, SHA-256 {sha})",
             f"settings: {json.dumps(s)}",
             "source text: CC BY open-access articles, listed with their licences in "
             "word_classes_sources.tsv.gz; derived word classes, see README.md"]
    write_word_classes(out / "word_classes.tsv.gz", tables, normalize=s["normalize"],
                       notes=notes)
    sources = (unlabeled / SOURCES).read_bytes()
    (out / "word_classes_sources.tsv.gz").write_bytes(gzip.compress(sources, 9, mtime=0))
    size = (out / "word_classes.tsv.gz").stat().st_size
    print(f"fitted in {seconds:.0f} s; wrote {out / 'word_classes.tsv.gz'} ({size / 1e6:.2f} MB); "
          f"text SHA-256 {sha}")
    print(json.dumps({"text": TEXT, "sha256": sha, "settings": s, "seconds": round(seconds),
                      "bytes": size, "n_words": int(max(t.n_words_ for t in tables))}))


if __name__ == "__main__":
    main()
