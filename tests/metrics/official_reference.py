"""A slow, line-by-line reference of the official JNLPBA scorer's counting.

It follows the published description of evalIOB2.pl statement by statement
(see docs/evaluation.md): a per-token loop with the ``match``/``bmatch``
flags and the weight that is 0 until the first reference object.  The tests
use it as the oracle for the vectorised implementation.
"""

from collections import defaultdict


def iob2_iobes(tags):
    out = []
    for i, tag in enumerate(tags):
        nxt = tags[i + 1] if i + 1 < len(tags) else None
        next_is_i = nxt is not None and nxt[:1] == "I"
        if tag[:1] == "I":
            out.append(("I" if next_is_i else "E") + tag[1:])
        elif tag[:1] == "B":
            out.append(("B" if next_is_i else "S") + tag[1:])
        else:
            out.append(tag)
    return out


def reference_counts(gold_blocks, answer_blocks):
    c = defaultdict(int)  # overall counters
    per = defaultdict(lambda: defaultdict(int))  # counter -> class -> n
    weight = 0  # Perl's $numlexs: undefined (0) until the first reference object

    def cnt(name, cls):
        c[name] += weight
        per[name][cls] += weight

    for ablock, rblock in zip(answer_blocks, gold_blocks, strict=True):
        assert len(ablock) == len(rblock)
        atags, rtags = iob2_iobes(ablock), iob2_iobes(rblock)
        match = bmatch = False
        for atag, rtag in zip(atags, rtags):
            aiob, riob = atag[:1], rtag[:1]
            acls = atag[2:] if atag[1:2] == "-" else ""
            rcls = rtag[2:] if rtag[1:2] == "-" else ""
            c["tags"] += 1
            c["correct_iob"] += aiob == riob
            c["correct_tags"] += atag == rtag
            if riob in ("S", "B"):
                weight = 1
                c["ref"] += 1
                per["ref"][rcls] += 1
            if aiob in ("S", "B"):
                cnt("ans", acls)
            if aiob == "S" and riob == "S":
                cnt("bexact", acls)
                cnt("bleft", acls)
                cnt("bright", acls)
                if acls == rcls:
                    cnt("exact", acls)
                    cnt("left", acls)
                    cnt("right", acls)
            if aiob == "S" and riob == "E":
                cnt("bright", acls)
                if acls == rcls:
                    cnt("right", acls)
            if (aiob, riob) in (("S", "B"), ("B", "S")):
                cnt("bleft", acls)
                if acls == rcls:
                    cnt("left", acls)
            if aiob == "B" and riob == "B":
                cnt("bleft", acls)
                bmatch = True
                if acls == rcls:
                    cnt("left", acls)
                    match = True
            if aiob != riob:
                bmatch = False
            if atag != rtag:
                match = False
            if aiob == "O" or riob == "O":
                match = bmatch = False
            if aiob == "E" and riob == "S":
                cnt("bright", acls)
                if acls == rcls:
                    cnt("right", acls)
            if aiob == "E" and riob == "E":
                if bmatch:
                    cnt("bexact", acls)
                cnt("bright", acls)
                if acls == rcls:
                    if match:
                        cnt("exact", acls)
                    cnt("right", acls)
    return dict(c), {k: dict(v) for k, v in per.items()}
