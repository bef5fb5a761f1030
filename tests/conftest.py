"""Shared test helpers: real-data location and a printed, overridable seed."""

import os
from pathlib import Path

import numpy as np
import pytest

_DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DATA_DIR = Path(os.environ.get("SKBIONER_DATA", _DEFAULT_DATA))


def data_path(*parts) -> Path:
    """Path to a file under the shared data directory, or skip the test."""
    p = DATA_DIR.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"real data not available: {p}")
    return p


@pytest.fixture(scope="session")
def seed():
    """Seed from SKBIONER_SEED (default 0), printed so a failure can be replayed."""
    s = int(os.environ.get("SKBIONER_SEED", "0"))
    print(f"SKBIONER_SEED={s}")
    return s


@pytest.fixture
def rng(seed):
    return np.random.default_rng(seed)


def hostile_inputs():
    """The module tests/hostile_inputs.py (issue 22's hostile cases and crafted files)."""
    import importlib.util
    import sys

    module = sys.modules.get("hostile_inputs")
    if module is None:
        path = Path(__file__).resolve().parent / "hostile_inputs.py"
        spec = importlib.util.spec_from_file_location("hostile_inputs", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["hostile_inputs"] = module
        spec.loader.exec_module(module)
    return module


def pytest_configure(config):
    """Compiled lexicons are cached in a directory of this run, not in the user's home."""
    import tempfile

    if "SKBIONER_CACHE" not in os.environ:
        config._skbioner_cache = tempfile.TemporaryDirectory(prefix="skbioner-cache-")
        os.environ["SKBIONER_CACHE"] = config._skbioner_cache.name


def pytest_unconfigure(config):
    cache = getattr(config, "_skbioner_cache", None)
    if cache is not None:
        os.environ.pop("SKBIONER_CACHE", None)
        cache.cleanup()


def pytest_report_header(config):
    return [f"skbioner data dir: {DATA_DIR} ({'present' if DATA_DIR.exists() else 'absent'})"]


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the slow end-to-end tests (docs build, examples, fault "
                          "injection, CLI demo...): the whole suite, as CI runs it")


def pytest_collection_modifyitems(config, items):
    """Without --slow, the tests marked ``slow`` are deselected: the fast default tier."""
    if config.getoption("--slow"):
        return
    keep = [item for item in items if "slow" not in item.keywords]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if "slow" in i.keywords])
        items[:] = keep
