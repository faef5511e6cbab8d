"""NumPy's own tests of argmax, argmin, nanargmax and nanargmin, unchanged, run
against argext.numpy.

NumPy's wheel ships its test suite. Its test modules are loaded here from
the installed NumPy (nothing of them is copied into this repository) under
private names, while numpy.argmax/argmin/nanargmax/nanargmin are argext.numpy's:
so the functions the modules bind when they are built (parametrize lists,
class attributes) are argext's, and a fixture keeps them so while each test
runs. Where the installed NumPy has no tests (a stripped build), this module
skips, saying so.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import argext.numpy as anp

FUNCTIONS = ("argmax", "argmin", "nanargmax", "nanargmin")
ROOT = Path(np.__file__).parent
CORE = "_core" if (ROOT / "_core" / "tests").is_dir() else "core"  # NumPy 1.x: numpy.core


def _patched():
    saved = {name: getattr(np, name) for name in FUNCTIONS}
    for name in FUNCTIONS:
        setattr(np, name, getattr(anp, name))
    return saved


def _load(relative):
    path = ROOT / relative
    if not path.is_file():
        pytest.skip(f"the installed NumPy has no {relative} (its tests were not installed)",
                    allow_module_level=True)
    spec = importlib.util.spec_from_file_location(f"argext_numpy_suite_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    saved = _patched()
    try:
        spec.loader.exec_module(module)
    finally:
        for name, function in saved.items():
            setattr(np, name, function)
    return module


@pytest.fixture(autouse=True)
def argext_numpy(monkeypatch):
    for name in FUNCTIONS:
        monkeypatch.setattr(np, name, getattr(anp, name))


_multiarray = _load(f"{CORE}/tests/test_multiarray.py")
_nanfunctions = _load("lib/tests/test_nanfunctions.py")


def test_loaded_suites_use_argext():
    # The parametrize lists were built while np.argmax was argext.numpy's.
    marks = [m for m in _multiarray.TestArgmaxArgminCommon.test_np_argmin_argmax_keepdims.pytestmark
             if m.args and m.args[0] == "method"]
    assert marks and set(marks[0].args[1]) == {anp.argmax, anp.argmin}


class TestArgmaxArgminCommon(_multiarray.TestArgmaxArgminCommon):
    pass


class TestArgmax(_multiarray.TestArgmax):
    pass


class TestArgmin(_multiarray.TestArgmin):
    pass


class TestNanFunctions_ArgminArgmax(_nanfunctions.TestNanFunctions_ArgminArgmax):
    nanfuncs = [anp.nanargmin, anp.nanargmax]
