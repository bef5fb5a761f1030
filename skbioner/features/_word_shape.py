"""Token shape functions: word class, orthographic flags, word formation.

Every function here maps one token string to its feature value(s) and is
deterministic and context free, so :class:`~skbioner.features.TokenFeaturizer`
calls it once per distinct word type.  They are public because a
per-token dict featurizer (as sklearn-crfsuite users write them) can reuse
them to get exactly the same values.

Character classes follow Python's ``str`` methods: a character is
*upper* if ``c.isupper()``, *lower* if ``c.islower()``, a *digit* if
``c.isdigit()``, and *other* otherwise (punctuation, symbols, uncased
letters).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right

__all__ = [
    "GREEK_LETTERS",
    "ORTHOGRAPHIC_FLAGS",
    "WORD_FORMATION_PATTERNS",
    "brief_word_class",
    "has_greek_letter",
    "is_roman_numeral",
    "length_bucket",
    "length_bucket_labels",
    "orthographic_flags",
    "word_class",
    "word_formation",
    "zhou_word_formation",
]

#: Greek letter names recognised by :func:`has_greek_letter`.
GREEK_LETTERS = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
    "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau",
    "upsilon", "phi", "chi", "psi", "omega",
)  # fmt: skip

# Longest names first so that "epsilon" is not read as "psi" + rest, etc.
_NAMES = sorted(GREEK_LETTERS, key=len, reverse=True)
# A lower-case or capitalised name: after the start, a non-letter or an
# upper-case letter ("NF-kappaB", "Ikappa", "PKCbeta"); before the end or
# anything but a lower-case letter ("kappaB", "betaII", "alpha1").
_GREEK_MIXED = "|".join(f"[{n[0].upper()}{n[0]}]{n[1:]}" for n in _NAMES)
# An all-capitals name must be a whole letter run ("TNF-ALPHA", not "CHIP").
_GREEK_UPPER = "|".join(n.upper() for n in _NAMES)
_GREEK_RE = re.compile(
    rf"(?:(?<![A-Za-z])|(?<=[A-Z]))(?:{_GREEK_MIXED})(?![a-z])"
    rf"|(?<![A-Za-z])(?:{_GREEK_UPPER})(?![A-Za-z])"
    r"|[\u0391-\u03a9\u03b1-\u03c9]"
)
_GREEK_WHOLE_RE = re.compile(rf"(?:{'|'.join(_NAMES)}|[\u0391-\u03a9\u03b1-\u03c9])", re.IGNORECASE)

_ROMAN_UPPER_RE = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_CHARS = frozenset("IVXLCDMivxlcdm")
_REAL_RE = re.compile(r"[-+]?(?:[0-9]+(?:[.,][0-9]+)+|[.,][0-9]+)")
_BRACKETS = frozenset("()[]{}")

#: Orthographic flags of :func:`orthographic_flags`, in output order.
ORTHOGRAPHIC_FLAGS = (
    "InitCap", "AllCaps", "MixedCaps", "CapsAndDigits", "HasDigit", "SingleDigit",
    "TwoDigits", "FourDigits", "NaturalNumber", "AlphaNumeric", "Punctuation", "SingleChar",
    "RealNumber", "HasDash", "HasSlash", "Bracket", "Greek", "Roman",
)  # fmt: skip


def _char_class(c):
    return "A" if c.isupper() else "a" if c.islower() else "0" if c.isdigit() else "_"


_ASCII_CLASS = {c: _char_class(chr(c)) for c in range(128)}
_RUNS_RE = re.compile(r"(.)\1+")


def word_class(token: str) -> str:
    """Map every character to ``A`` (upper), ``a`` (lower), ``0`` (digit) or ``_``.

    Parameters
    ----------
    token : str

    Returns
    -------
    str
        A string of the same length as ``token``.

    Examples
    --------
    >>> word_class("NF-kappa")
    'AA_aaaaa'
    >>> word_class("IL-2")
    'AA_0'
    """
    if token.isascii():
        return token.translate(_ASCII_CLASS)
    return "".join(map(_char_class, token))


def brief_word_class(token: str) -> str:
    """:func:`word_class` with runs of the same class collapsed to one character.

    Parameters
    ----------
    token : str
        The token to describe.

    Returns
    -------
    str
        The word class with every run of one character collapsed.

    Examples
    --------
    >>> brief_word_class("NF-kappa")
    'A_a'
    >>> brief_word_class("p53")
    'a0'
    """
    return _collapse_runs(word_class(token))


@functools.lru_cache(maxsize=1 << 16)
def _collapse_runs(wc: str) -> str:
    return _RUNS_RE.sub(r"\1", wc)


def has_greek_letter(token: str) -> bool:
    """Whether ``token`` is or contains a Greek letter (name or character).

    A name matches in lower case, capitalised, or in capitals
    (case-insensitive in that sense) when it stands as a part of the token:
    it starts the token or follows a non-letter or an upper-case letter, and
    is not followed by a lower-case letter (``"alpha"``, ``"TNF-alpha"``,
    ``"NF-kappaB"``, ``"IkappaBalpha"``, ``"PKCbeta"``).  An all-capitals
    name must be a whole run of letters (``"TNF-ALPHA"``).  This keeps the
    short names out of ordinary words (``"mutation"``, ``"spin"``,
    ``"toxin"``, ``"Betamethasone"``).  Greek characters (``"α"``) match too.

    Parameters
    ----------
    token : str
        The token to test.

    Returns
    -------
    bool
        True if a Greek letter name or character occurs in ``token``.

    Examples
    --------
    >>> has_greek_letter("NF-kappaB"), has_greek_letter("mutation")
    (True, False)
    """
    return _GREEK_RE.search(token) is not None


def is_roman_numeral(token: str) -> bool:
    """Whether ``token`` is a well-formed Roman numeral (all upper or all lower case).

    Parameters
    ----------
    token : str
        The token to test.

    Returns
    -------
    bool
        True if ``token`` is a valid Roman numeral in one case.

    Examples
    --------
    >>> is_roman_numeral("VIII"), is_roman_numeral("iv"), is_roman_numeral("mild")
    (True, True, False)
    """
    if not _ROMAN_CHARS.issuperset(token) or not (token.isupper() or token.islower()):
        return False  # (an empty token is neither upper nor lower case)
    return _ROMAN_UPPER_RE.fullmatch(token.upper()) is not None


def orthographic_flags(token: str) -> tuple[str, ...]:
    """The orthographic flags (Settles 2004; Chan, Lam & Yu 2007) a token has.

    A token's flags are returned in the order of :data:`ORTHOGRAPHIC_FLAGS`
    (upper/lower/digit as in :func:`word_class`):

    ``InitCap``
        First character upper case.
    ``AllCaps``
        Only upper-case letters.
    ``MixedCaps``
        Only letters, some lower case, and an upper-case letter after the
        first character (``"IkappaB"``, ``"pRb"``).
    ``CapsAndDigits``
        Only upper-case letters and digits, at least one of each (``"IL2"``).
    ``HasDigit``, ``SingleDigit``, ``TwoDigits``, ``FourDigits``, ``NaturalNumber``
        Contains a digit; exactly one, two, four digits; only digits.
    ``AlphaNumeric``
        Only letters and digits, at least one of each.
    ``Punctuation``
        Only *other* characters (no letter, no digit).
    ``SingleChar``
        One letter.
    ``RealNumber``
        Optional sign, digits with ``.`` or ``,`` separated groups
        (``"1.5"``, ``"-0.25"``, ``".5"``, ``"1,000"``).
    ``HasDash``, ``HasSlash``
        Contains ``-``, ``/``.
    ``Bracket``
        One of ``( ) [ ] { }``.
    ``Greek``
        :func:`has_greek_letter`.
    ``Roman``
        :func:`is_roman_numeral`.

    Parameters
    ----------
    token : str

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> orthographic_flags("IL-2")
    ('InitCap', 'HasDigit', 'HasDash')
    >>> orthographic_flags("1.5")
    ('HasDigit', 'RealNumber')
    >>> orthographic_flags("NF-kappaB")
    ('InitCap', 'HasDash', 'Greek')
    """
    wc = word_class(token)
    flags = _class_flags(wc)
    extra = tuple(name for name, rule in _TOKEN_FLAGS if rule(token, wc))
    return flags + extra if extra else flags


# the flags of orthographic_flags that read more than the word class, in their order
_TOKEN_FLAGS = (
    ("RealNumber",
     lambda t, wc: "0" in wc and ("." in t or "," in t) and _REAL_RE.fullmatch(t) is not None),
    ("HasDash", lambda t, wc: "-" in t),
    ("HasSlash", lambda t, wc: "/" in t),
    ("Bracket", lambda t, wc: t in _BRACKETS),
    ("Greek", lambda t, wc: _GREEK_RE.search(t) is not None),
    ("Roman", lambda t, wc: is_roman_numeral(t)),
)
_DIGIT_COUNTS = {1: "SingleDigit", 2: "TwoDigits", 4: "FourDigits"}


@functools.lru_cache(maxsize=1 << 16)
def _class_flags(wc: str) -> tuple[str, ...]:
    """The flags of :func:`orthographic_flags` that depend on the word class only."""
    classes = set(wc)
    flags = []
    if wc[:1] == "A":
        flags.append("InitCap")
    if classes == {"A"}:
        flags.append("AllCaps")
    if classes == {"A", "a"} and "A" in wc[1:]:
        flags.append("MixedCaps")
    if classes == {"A", "0"}:
        flags.append("CapsAndDigits")
    if "0" in classes:
        flags.append("HasDigit")
        if classes == {"0"}:
            if len(wc) in _DIGIT_COUNTS:
                flags.append(_DIGIT_COUNTS[len(wc)])
            flags.append("NaturalNumber")
        if len(classes) > 1 and "_" not in classes:
            flags.append("AlphaNumeric")
    if classes == {"_"}:
        flags.append("Punctuation")
    if wc == "A" or wc == "a":
        flags.append("SingleChar")
    return tuple(flags)


_FORMATION_RULES = (
    ("Comma", lambda t, wc: t == ","),
    ("Dot", lambda t, wc: t == "."),
    ("Hyphen", lambda t, wc: t == "-"),
    ("Slash", lambda t, wc: t == "/"),
    ("OpenBracket", lambda t, wc: t in ("(", "[", "{")),
    ("CloseBracket", lambda t, wc: t in (")", "]", "}")),
    ("Punctuation", lambda t, wc: set(wc) == {"_"}),
    ("OneDigit", lambda t, wc: wc == "0"),
    ("Digits", lambda t, wc: set(wc) == {"0"}),
    ("DigitCommaDigit", lambda t, wc: re.fullmatch(r"[0-9]+(?:,[0-9]+)+", t) is not None),
    ("DigitDotDigit", lambda t, wc: re.fullmatch(r"[0-9]+(?:\.[0-9]+)+", t) is not None),
    ("Greek", lambda t, wc: _GREEK_WHOLE_RE.fullmatch(t) is not None),
    (
        "RomanDigit",
        lambda t, wc: t.isupper() and t not in ("C", "D", "L", "M") and is_roman_numeral(t),
    ),
    ("ATCGSequence", lambda t, wc: len(t) >= 4 and set(t) <= set("ACGTU")),
    ("OneCap", lambda t, wc: wc == "A"),
    ("TwoCaps", lambda t, wc: wc == "AA"),
    ("AllCaps", lambda t, wc: set(wc) == {"A"}),
    ("CapsAndDigits", lambda t, wc: set(wc) == {"A", "0"}),
    ("InitCap", lambda t, wc: wc[0] == "A" and set(wc[1:]) == {"a"}),
    ("LowerCase", lambda t, wc: set(wc) == {"a"}),
    ("LowerAndCaps", lambda t, wc: set(wc) == {"A", "a"}),
    ("AlphaDigit", lambda t, wc: re.fullmatch(r"[Aa]+0+", wc) is not None),
    ("DigitAlpha", lambda t, wc: re.fullmatch(r"0+[Aa]+", wc) is not None),
    ("AlphaDigitAlpha", lambda t, wc: re.fullmatch(r"[Aa]+0+[Aa]+", wc) is not None),
    (
        "HyphenCompound",
        lambda t, wc: re.fullmatch(r"[Aa0]+(?:-[Aa0]+)+", _dash_class(t, wc)) is not None,
    ),
)

#: The word formation patterns of :func:`word_formation`, in priority order.
WORD_FORMATION_PATTERNS = tuple(name for name, _ in _FORMATION_RULES) + ("Other",)


def _dash_class(token: str, wc: str) -> str:
    # the word class with hyphens kept as "-" (other symbols stay "_")
    return "".join("-" if c == "-" else k for c, k in zip(token, wc, strict=True))


def word_formation(token: str) -> str:
    """The word formation pattern of a token (after Zhou & Su 2004, Table 1).

    One pattern per token: the first of :data:`WORD_FORMATION_PATTERNS`
    that applies, ``"Other"`` if none does.  ``RomanDigit`` needs capitals
    and leaves the single letters ``C D L M`` to ``OneCap``;
    ``ATCGSequence`` needs four or more of ``A C G T U``; ``Greek`` is a
    whole-token Greek letter name or character (any case).

    Parameters
    ----------
    token : str
        The token to classify.

    Returns
    -------
    str
        The name of its pattern, or ``"Other"``.

    Examples
    --------
    >>> [word_formation(t) for t in ["IL-2", "CD4", "kappa", "VIII", "Jurkat", "p53"]]
    ['HyphenCompound', 'CapsAndDigits', 'Greek', 'RomanDigit', 'InitCap', 'AlphaDigit']
    """
    wc = word_class(token)
    return next((name for name, rule in _FORMATION_RULES if rule(token, wc)), "Other")


#: Stop words of the ``StopWord`` pattern of :func:`zhou_word_formation`.
_ZHOU_STOP_WORDS = frozenset(
    "a an and are as at be been but by for from had has have in into is it its no not of on "
    "or that the their these this those to was were which while with".split()
)
_ZHOU_ROMAN_RE = re.compile(r"(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})")

_ZHOU_RULES = (
    ("Comma", lambda t, a: t == ","),
    ("Dot", lambda t, a: t == "."),
    ("Parenthesis", lambda t, a: t in ("(", ")", "[", "]", "{", "}")),
    ("OneDigit", lambda t, a: len(t) == 1 and t.isdigit()),
    ("AllDigits", lambda t, a: t.isdigit()),
    ("OneCap", lambda t, a: len(t) == 1 and "A" <= t <= "Z"),
    ("StopWord", lambda t, a: t.lower() in _ZHOU_STOP_WORDS),
    ("ATCGsequence", lambda t, a: len(t) >= 4 and set(t) <= set("ACGTU")),
    ("RomanDigit", lambda t, a: _ZHOU_ROMAN_RE.fullmatch(t) is not None),
    ("AllCaps", lambda t, a: a.isalpha() and a.isupper() and a == t),
    ("GreekLetter", lambda t, a: _GREEK_WHOLE_RE.fullmatch(t) is not None),
    ("DigitCommaDigit", lambda t, a: re.fullmatch(r"[0-9]+(?:,[0-9]+)+", t) is not None),
    ("DigitDotDigit", lambda t, a: re.fullmatch(r"[0-9]+(?:\.[0-9]+)+", t) is not None),
    ("CapLowAlpha", lambda t, a: re.fullmatch(r"[A-Z][a-z]+", a) is not None),
    ("CapMixAlpha", lambda t, a: re.fullmatch(r"[A-Z][A-Za-z]*", a) is not None),
    ("LowMixAlpha", lambda t, a: re.fullmatch(r"[a-z][A-Za-z]*", a) is not None),
    ("AlphaDigitAlpha", lambda t, a: re.fullmatch(r"[A-Za-z]+[0-9]+[A-Za-z]+", a) is not None),
    ("AlphaDigit", lambda t, a: re.fullmatch(r"[A-Za-z]+[0-9]+", a) is not None),
    ("DigitAlphaDigit", lambda t, a: re.fullmatch(r"[0-9]+[A-Za-z]+[0-9]+", a) is not None),
    ("DigitAlpha", lambda t, a: re.fullmatch(r"[0-9]+[A-Za-z]+", a) is not None),
)

#: The patterns of :func:`zhou_word_formation`, in the paper's priority order.
ZHOU_FORMATION_PATTERNS = tuple(name for name, _ in _ZHOU_RULES) + ("Others",)


def zhou_word_formation(token: str) -> str:
    """The word formation pattern of Zhou & Su (2004), in the paper's priority order.

    One pattern per token, the first that applies: ``Comma``, ``Dot``,
    ``Parenthesis``, ``OneDigit``, ``AllDigits``, ``OneCap``, ``StopWord``,
    ``ATCGsequence`` (four or more of ``A C G T U``), ``RomanDigit`` (capital
    ``I V X`` numerals), ``AllCaps``, ``GreekLetter`` (a whole Greek letter
    name or character), ``DigitCommaDigit``, ``DigitDotDigit``,
    ``CapLowAlpha`` (``Src``), ``CapMixAlpha`` (``IgM``), ``LowMixAlpha``
    (``kDa``), ``AlphaDigitAlpha`` (``H2A``), ``AlphaDigit`` (``T4``),
    ``DigitAlphaDigit`` (``6C2``), ``DigitAlpha`` (``19D``), else
    ``Others``.  The letter/digit patterns from ``CapLowAlpha`` on are read
    on the token's alphanumeric characters (``IL-2`` is ``AlphaDigit``).

    Parameters
    ----------
    token : str

    Returns
    -------
    str
        One of :data:`ZHOU_FORMATION_PATTERNS`.

    Examples
    --------
    >>> [zhou_word_formation(t) for t in ["IL-2", "IgM", "kDa", "TATA", "II", "Src", "of"]]
    ['AlphaDigit', 'CapMixAlpha', 'LowMixAlpha', 'ATCGsequence', 'RomanDigit', \
'CapLowAlpha', 'StopWord']
    """
    alnum = "".join(c for c in token if c.isalnum())
    return next((name for name, rule in _ZHOU_RULES if rule(token, alnum)), "Others")


def length_bucket_labels(bins: tuple[int, ...]) -> tuple[str, ...]:
    """Labels of the length buckets that start at ``bins`` (``"5-6"``, ``"10+"``).

    Parameters
    ----------
    bins : tuple of int
        Increasing lower bounds of the buckets; the last bucket is open.

    Returns
    -------
    tuple of str
        One label per bucket, in the order of ``bins``.

    Examples
    --------
    >>> length_bucket_labels((1, 2, 3, 4, 5, 7, 10))
    ('1', '2', '3', '4', '5-6', '7-9', '10+')
    """
    return tuple(f"{lo}+" if hi is None else str(lo) if hi == lo + 1 else f"{lo}-{hi - 1}"
                 for lo, hi in zip(bins, (*bins[1:], None), strict=True))


def length_bucket(token: str, bins: tuple[int, ...] = (1, 2, 3, 4, 5, 7, 10)) -> str | None:
    """The length bucket label of ``token`` (``None`` if shorter than ``bins[0]``).

    Parameters
    ----------
    token : str
        The token whose length is bucketed.
    bins : tuple of int, default=(1, 2, 3, 4, 5, 7, 10)
        Increasing lower bounds of the buckets; the last bucket is open.

    Returns
    -------
    str or None
        The label (as in :func:`length_bucket_labels`) of the bucket that
        holds ``len(token)``, or ``None`` if it is shorter than ``bins[0]``.

    Examples
    --------
    >>> length_bucket("kappa"), length_bucket("interleukin")
    ('5-6', '10+')
    """
    i = bisect_right(bins, len(token)) - 1
    return length_bucket_labels(bins)[i] if i >= 0 else None
