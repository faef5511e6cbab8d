"""Shared test set-up: the tests must exercise the installed, compiled argext."""

import os
from pathlib import Path

import argext

_SOURCE_TREE = Path(__file__).resolve().parent.parent / "argext"
if Path(argext.__file__).resolve().parent == _SOURCE_TREE:
    raise RuntimeError(
        f"tests imported argext from the source tree ({_SOURCE_TREE}); install it and run "
        "`python -I -m pytest` so that the installed extension is tested"
    )

os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path.home() / ".cache" / "argext-hypothesis"))


import pytest  # noqa: E402


@pytest.fixture(params=argext.supported_isas())
def isa(request):
    """Runs the test at each kernel ISA level this machine supports, then
    restores the level that was in use."""
    previous = argext.get_isa()
    argext.set_isa(request.param)
    try:
        yield request.param
    finally:
        argext.set_isa(previous)
