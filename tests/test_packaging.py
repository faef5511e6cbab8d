"""Release metadata: one version everywhere, and the free-threading declaration in effect."""

import os
import re
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

import argext

ROOT = Path(__file__).resolve().parent.parent


def header_define(name):
    header = (ROOT / "csrc" / "include" / "argext.h").read_text()
    return re.search(rf"^#define {name} (.+)$", header, re.MULTILINE).group(1).strip()


def test_version_has_one_source():
    """csrc/include/argext.h is the source; the compiled library and the installed metadata agree."""
    header_version = header_define("ARGEXT_VERSION_STRING").strip('"')
    assert argext.__version__ == header_version
    assert metadata.version("argext") == header_version


def test_version_numbers_spell_the_version_string():
    parts = [header_define(f"ARGEXT_VERSION_{p}") for p in ("MAJOR", "MINOR", "PATCH")]
    assert ".".join(parts) == argext.__version__


def test_changelog_has_an_entry_for_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(argext.__version__)}\b", changelog, re.MULTILINE)


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="needs free-threaded CPython")
@pytest.mark.skipif("PYTHON_GIL" in os.environ, reason="PYTHON_GIL overrides the modules' declarations")
def test_importing_argext_keeps_the_gil_disabled():
    """A module without Py_MOD_GIL_NOT_USED would have re-enabled the GIL when imported."""
    assert "argext._core" in sys.modules
    assert not sys._is_gil_enabled()


def test_stubs_are_installed():
    """PEP 561: py.typed and a stub for argext, argext.dask and argext.onnx beside the modules."""
    package = Path(argext.__file__).parent
    for name in ("py.typed", "__init__.pyi", "dask.pyi", "onnx.pyi"):
        assert (package / name).is_file(), name


def test_public_names_are_the_documented_ones():
    """What `dir(argext)` shows without an underscore is __all__ (the stub's list) and the
    submodules imported so far (argext.numpy, ...): no module the package imports for itself
    (`argext.os`) looks like part of its API."""
    public = {name for name in dir(argext) if not name.startswith("_")
              and getattr(getattr(argext, name), "__name__", "") != f"argext.{name}"}
    assert public == set(argext.__all__) - {"__version__"}
