import numpy as np
import pytest

from skbioner.models._passive_aggressive import _stable_argsort


@pytest.mark.parametrize("m", [0, 1, 2, 15, 16, 17, 33, 100, 1000, 4099])
@pytest.mark.parametrize("high", [3, 1000, 10**12])
def test_stable_argsort_is_numpys_stable_argsort(m, high):
    keys = np.random.default_rng(m).integers(0, high, m).astype(np.int64)
    np.testing.assert_array_equal(_stable_argsort(keys), np.argsort(keys, kind="mergesort"))
