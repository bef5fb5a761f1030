"""Rebuild the bundled JNLPBA sample (skbioner/datasets/data/) from the full corpus.

Every 8th abstract of the training split (250 of 2,000) and of the test split
(51 of 404), copied byte for byte, gzip-compressed with a fixed mtime so the
output is reproducible:

    python scripts/make_sample.py ../shared/data/jnlpba
"""

import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "skbioner" / "datasets" / "data"


def abstracts(text):
    """Split a JNLPBA file into per-abstract chunks starting at ###MEDLINE lines."""
    parts = text.split("###MEDLINE:")
    assert parts[0] == "", "file must start with a ###MEDLINE line"
    return ["###MEDLINE:" + p for p in parts[1:]]


def main(src):
    src = Path(src)
    for split in ("train", "test"):
        text = (src / f"{split}.iob2").read_text(encoding="utf-8")
        chosen = abstracts(text)[::8]
        data = "".join(chosen).encode("utf-8")
        with open(OUT / f"jnlpba-{split}-sample.iob2.gz", "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
                gz.write(data)
        print(split, len(chosen), "abstracts", data.count(b"\n\n"), "blank-line ends")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/jnlpba")
