"""Shape functions against hand-written values."""

import pytest

from skbioner.features import (
    GREEK_LETTERS,
    ORTHOGRAPHIC_FLAGS,
    WORD_FORMATION_PATTERNS,
    brief_word_class,
    has_greek_letter,
    is_roman_numeral,
    length_bucket,
    length_bucket_labels,
    orthographic_flags,
    word_class,
    word_formation,
)


@pytest.mark.parametrize(
    "token, wc, brief",
    [
        ("NF-kappa", "AA_aaaaa", "A_a"),
        ("NF-kappaB", "AA_aaaaaA", "A_aA"),
        ("IL-2", "AA_0", "A_0"),
        ("p53", "a00", "a0"),
        ("1998", "0000", "0"),
        ("(", "_", "_"),
        ("α-chain", "a_aaaaa", "a_a"),
        ("Ünïcode", "Aaaaaaa", "Aa"),
        ("x", "a", "a"),
    ],
)
def test_word_class(token, wc, brief):
    assert word_class(token) == wc
    assert brief_word_class(token) == brief


@pytest.mark.parametrize(
    "token, flags",
    [
        ("IL-2", {"InitCap", "HasDigit", "HasDash"}),
        ("NF-kappaB", {"InitCap", "HasDash", "Greek"}),
        ("IkappaBalpha", {"InitCap", "MixedCaps", "Greek"}),
        ("pRb", {"MixedCaps"}),
        ("The", {"InitCap"}),
        ("CHIP", {"InitCap", "AllCaps"}),
        ("CD4", {"InitCap", "CapsAndDigits", "HasDigit", "AlphaNumeric"}),
        ("p53", {"HasDigit", "AlphaNumeric"}),
        ("7", {"HasDigit", "SingleDigit", "NaturalNumber"}),
        ("42", {"HasDigit", "TwoDigits", "NaturalNumber"}),
        ("123", {"HasDigit", "NaturalNumber"}),
        ("1998", {"HasDigit", "FourDigits", "NaturalNumber"}),
        ("1.5", {"HasDigit", "RealNumber"}),
        ("-0.25", {"HasDigit", "RealNumber", "HasDash"}),
        ("1,000", {"HasDigit", "RealNumber"}),
        ("1.2.3", {"HasDigit", "RealNumber"}),
        ("2-3", {"HasDigit", "HasDash"}),
        ("and/or", {"HasSlash"}),
        ("/", {"Punctuation", "HasSlash"}),
        ("(", {"Punctuation", "Bracket"}),
        ("]", {"Punctuation", "Bracket"}),
        (".", {"Punctuation"}),
        ("--", {"Punctuation", "HasDash"}),
        ("alpha", {"Greek"}),
        ("TNF-ALPHA", {"InitCap", "HasDash", "Greek"}),
        ("mutation", set()),
        ("VIII", {"InitCap", "AllCaps", "Roman"}),
        ("iv", {"Roman"}),
        ("x", {"SingleChar", "Roman"}),
        ("T", {"InitCap", "AllCaps", "SingleChar"}),
        ("mild", set()),
    ],
)
def test_orthographic_flags(token, flags):
    out = orthographic_flags(token)
    assert set(out) == flags
    assert len(out) == len(set(out))
    assert list(out) == [f for f in ORTHOGRAPHIC_FLAGS if f in out]  # documented order


@pytest.mark.parametrize(
    "token, expected",
    [
        ("alpha", True), ("Alpha", True), ("ALPHA", True), ("TNF-alpha", True),
        ("NF-kappaB", True), ("IkappaBalpha", True), ("PKCbeta", True), ("betaII", True),
        ("kappaB", True), ("α", True), ("Ω-loop", True), ("IFN-gamma", True),
        ("mutation", False), ("spin", False), ("toxin", False), ("Betamethasone", False),
        ("alphabet", False), ("chimeric", False), ("CHIP", False), ("metal", False),
        ("nucleus", False),
    ],
)  # fmt: skip
def test_greek(token, expected):
    assert has_greek_letter(token) is expected


def test_greek_letter_list():
    assert len(GREEK_LETTERS) == 24 and "kappa" in GREEK_LETTERS


@pytest.mark.parametrize(
    "token, expected",
    [("I", True), ("IV", True), ("VIII", True), ("MCMXCIV", True), ("xii", True),
     ("IIII", False), ("VX", False), ("Iv", False), ("mild", False), ("", False),
     ("dim", False), ("CD", True)],
)  # fmt: skip
def test_roman(token, expected):
    assert is_roman_numeral(token) is expected


@pytest.mark.parametrize(
    "token, pattern",
    [
        (",", "Comma"), (".", "Dot"), ("-", "Hyphen"), ("/", "Slash"), ("(", "OpenBracket"),
        ("]", "CloseBracket"), (";", "Punctuation"), ("7", "OneDigit"), ("1998", "Digits"),
        ("1,000", "DigitCommaDigit"), ("1.5", "DigitDotDigit"), ("kappa", "Greek"),
        ("Alpha", "Greek"), ("VIII", "RomanDigit"), ("I", "RomanDigit"), ("C", "OneCap"),
        ("TATA", "ATCGSequence"), ("T", "OneCap"), ("NF", "TwoCaps"), ("CHIP", "AllCaps"),
        ("CD4", "CapsAndDigits"), ("Jurkat", "InitCap"), ("cells", "LowerCase"),
        ("IkappaB", "LowerAndCaps"), ("p53", "AlphaDigit"), ("3kb", "DigitAlpha"),
        ("3T", "CapsAndDigits"),
        ("Ab2c", "AlphaDigitAlpha"), ("IL-2", "HyphenCompound"), ("c-Myc", "HyphenCompound"),
        ("-0.25", "Other"), ("a.b", "Other"),
    ],
)  # fmt: skip
def test_word_formation(token, pattern):
    assert word_formation(token) == pattern
    assert pattern in WORD_FORMATION_PATTERNS


def test_length_buckets():
    assert length_bucket_labels((1, 2, 3, 4, 5, 7, 10)) == (
        "1", "2", "3", "4", "5-6", "7-9", "10+",
    )  # fmt: skip
    got = [length_bucket("x" * n) for n in range(1, 13)]
    assert got == ["1", "2", "3", "4", "5-6", "5-6", "7-9", "7-9", "7-9", "10+", "10+", "10+"]
    assert length_bucket("ab", (3, 5)) is None
    assert length_bucket("abcd", (3, 5)) == "3-4"
    assert length_bucket("abcdef", (3, 5)) == "5+"
