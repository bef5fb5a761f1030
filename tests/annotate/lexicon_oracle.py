"""Slow pure-Python lexicon matching: the oracle of ``skbioner/annotate/_lexicon_kernel.py``.

Strings are compared, not hashes; the rules (stop words, symbols needing a capital letter,
the leftmost longest name per type, the limits of a run) are those of ``match_tokens``.
"""

from skbioner.annotate._lexicon_kernel import MAX_CHARS, MAX_TOKENS, name_key


def match_reference(sentences, names, flags=None):
    """The pure-Python oracle of ``match_tokens``: strings compared, not hashes.

    Parameters
    ----------
    sentences : list of list of str
        Each token already normalized.
    names : dict of str -> set of int
        Each name in ``name_key`` form and its type indices; ``-1 - k`` for type ``k``
        of a name that needs a capital letter in the run.
    flags : dict of str -> int, optional
        The flags of ``match_tokens`` per token (default 0).

    Returns
    -------
    list of dict of int -> list of str
        Per sentence, per type, the codes ``CODES`` of its tokens.
    """
    flags = flags or {}
    n_types = 1 + max((k if k >= 0 else -1 - k for ts in names.values() for k in ts),
                      default=-1)
    out = []
    for sent in sentences:
        ends = [[-1] * n_types for _ in sent]
        for i in range(len(sent)):
            if not sent[i] or flags.get(sent[i], 0) & 2:
                continue
            run, upper = "", False
            for j in range(i, min(len(sent), i + MAX_TOKENS)):
                if not sent[j]:
                    continue
                if len(run) + len(sent[j]) > MAX_CHARS:
                    break
                run += sent[j]
                upper = upper or bool(flags.get(sent[j], 0) & 1)
                if flags.get(sent[j], 0) & 2:
                    continue
                for k in names.get(name_key(run), ()):
                    if k >= 0 or upper:
                        ends[i][k if k >= 0 else -1 - k] = j
        cols = {}
        for k in range(n_types):
            col = ["O"] * len(sent)
            i = 0
            while i < len(sent):
                e = ends[i][k]
                if e < 0:
                    i += 1
                    continue
                col[i:e + 1] = ["S"] if e == i else ["B"] + ["I"] * (e - i - 1) + ["E"]
                i = e + 1
            cols[k] = col
        out.append(cols)
    return out
