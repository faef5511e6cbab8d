"""Shared test set-up: the tests must exercise the installed, compiled argext."""

import os
from pathlib import Path

# Parts of 1 MiB (the library's default is 8 MiB, a speed choice): the suites' inputs of a few
# MiB split over threads, as do those of the C examples they run.
os.environ.setdefault("ARGEXT_MIN_PART_BYTES", str(1 << 20))

import argext  # noqa: E402

_SOURCE_TREE = Path(__file__).resolve().parent.parent / "argext"
if Path(argext.__file__).resolve().parent == _SOURCE_TREE:
    raise RuntimeError(
        f"tests imported argext from the source tree ({_SOURCE_TREE}); install it and run "
        "`python -I -m pytest` so that the installed extension is tested"
    )

os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path.home() / ".cache" / "argext-hypothesis"))


import zlib  # noqa: E402

import pytest  # noqa: E402

LEVELS = argext.supported_isas()  # lowest first: the last is the default, the best
# ARGEXT_TEST_LEVELS=best: the best level only, for a run that checks something else than the
# kernels, which the full run covers (release-check's run against the oldest NumPy).
if os.environ.get("ARGEXT_TEST_LEVELS") == "best":
    LEVELS = LEVELS[-1:]
# The suites that compare argext's numbers with a reference, each with its draw: every
# test of them runs at every level, every case at the best level and one case in DRAW
# at each other level (a different draw per level, the same on every run: across the
# levels, most cases run at two or more). The slowest suites draw fewer, to keep CI's
# time. ARGEXT_TEST_ISA_DRAW=1 runs every case at every level (a long run, not CI's).
EVERY_LEVEL_SUITES = {
    "test_argminmax": 4, "test_reduce_axes": 4, "test_hardmax": 4, "test_nanarg": 4,
    "test_front": 4, "test_onnx_ops": 4, "test_spec_examples": 4, "test_topk": 4,
    "test_threads": 8, "test_fuzz": 8,  # 8 MiB inputs at four thread counts; hypothesis runs
}
# The tests that ask for the level themselves (`isa`: the kernels' paths, test_isa.py and
# test_topk.py's) each case at the best level and one case in ISA_DRAW at each other level:
# the C driver checks every level too (.ci/valgrind, natively and under memcheck).
ISA_DRAW = 2
ONE_DRAW = os.environ.get("ARGEXT_TEST_ISA_DRAW")


def _at_level(level):
    previous = argext.get_isa()
    argext.set_isa(level)
    try:
        yield level
    finally:
        argext.set_isa(previous)


@pytest.fixture(params=LEVELS)
def isa(request):
    """Runs the test at each kernel ISA level this machine supports (every case at the
    best, a draw of them at the others: ISA_DRAW), then restores the level that was in use."""
    yield from _at_level(request.param)


def _suite(module):
    return module.__name__.rpartition(".")[2]


def pytest_generate_tests(metafunc):
    """Each test of EVERY_LEVEL_SUITES that does not ask for `isa` gets an isa_level
    parameter, which the fixture below applies."""
    if _suite(metafunc.module) in EVERY_LEVEL_SUITES and "isa" not in metafunc.fixturenames:
        metafunc.fixturenames.append("isa_level")
        metafunc.parametrize("isa_level", LEVELS)


@pytest.fixture(autouse=True)
def _isa_level(request):
    callspec = getattr(request.node, "callspec", None)
    if callspec is None or "isa_level" not in callspec.params:
        yield
    else:
        yield from _at_level(callspec.params["isa_level"])


def _drawn(item, param):
    """Whether a test below the best level is in its level's draw: a hash of its test id
    (which names the level, so each level draws other cases)."""
    if item.callspec.params[param] == LEVELS[-1]:
        return True
    draw = ISA_DRAW if param == "isa" else EVERY_LEVEL_SUITES[_suite(item.module)]
    draw = int(ONE_DRAW) if ONE_DRAW else draw
    return zlib.crc32(item.nodeid.encode()) % draw == 0


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        param = next((p for p in ("isa_level", "isa") if p in params), None)
        (keep if param is None or _drawn(item, param) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
