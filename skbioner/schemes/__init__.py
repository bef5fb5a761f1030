"""Segment representations (IO, IOB1, IOB2, IOE1, IOE2, IOBES, BI, IE, BIES)."""

from ._check import check_label_sequences
from ._encoder import SegmentEncoder
from ._schemes import (
    LOSSLESS_SCHEMES,
    SCHEMES,
    check_scheme,
    convert,
    is_valid_label,
    labels_to_spans,
    projection_table,
    repair,
    scheme_labels,
    segment_table,
    spans_to_labels,
    split_label,
)
from ._transitions import transition_mask

__all__ = [
    "LOSSLESS_SCHEMES",
    "SCHEMES",
    "SegmentEncoder",
    "check_label_sequences",
    "check_scheme",
    "convert",
    "is_valid_label",
    "labels_to_spans",
    "projection_table",
    "repair",
    "scheme_labels",
    "segment_table",
    "spans_to_labels",
    "split_label",
    "transition_mask",
]
