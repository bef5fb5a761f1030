"""The Examples sections of skbioner.features run as doctests."""

import doctest
import importlib

import pytest

MODULES = [
    "skbioner.features._channels",
    "skbioner.features._featurizer",
    "skbioner.features._registry",
    "skbioner.features._representation",
    "skbioner.features._templates",
    "skbioner.features._word_shape",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
