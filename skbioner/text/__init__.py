"""Raw text processing: tokenization, sentence splitting, token normalization.

:class:`BioTokenizer` (and the functions :func:`tokenize`,
:func:`split_sentences`, :func:`tokenize_text`) splits raw biomedical text
into sentences and tokens the way the JNLPBA/GENIA corpus is tokenized,
keeping every token's character offsets; :func:`align_tokens` locates the
tokens of an already tokenized text in its raw text;
:func:`tokenize_documents` turns documents annotated with character spans
(brat, PubTator, BioC) into sentences and IOB2 labels; :func:`recut` joins
tokens linked by a hyphen or slash back into words and cuts them again by
one entity-blind rule (what :class:`skbioner.models.RecutTagger` tags), and
:func:`cut_at_boundaries` glues such pieces back except where a tagger of pieces puts
an entity boundary (:class:`skbioner.models.LearnedCutTagger`, raw text).

:class:`NumericNormalizer` rewrites every run of digits in a token as one
representative numeral (NERBio, Tsai et al. 2006), so that ``IL-2`` and
``IL-5`` share their features; :func:`normalize_numerals` is the same
mapping for one string.
"""

from ._cuts import CutTable, load_cut_table
from ._normalize import NumericNormalizer, normalize_numerals
from ._recut import cut_at_boundaries, hyphen_cut_share, recut
from ._standoff import tokenize_documents
from ._tokenize import (
    BioTokenizer,
    TokenizedSentence,
    align_tokens,
    split_sentences,
    tokenize,
    tokenize_text,
)

__all__ = [
    "BioTokenizer",
    "CutTable",
    "NumericNormalizer",
    "TokenizedSentence",
    "align_tokens",
    "cut_at_boundaries",
    "hyphen_cut_share",
    "load_cut_table",
    "normalize_numerals",
    "recut",
    "split_sentences",
    "tokenize",
    "tokenize_documents",
    "tokenize_text",
]
