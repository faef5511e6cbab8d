"""The C API's one list of functions: argext.h declares them, ARGEXT_CAPI_FUNCTIONS in
argext_capi.h orders the capsule table (struct, initialiser), its call macros follow that list
entry by entry, and argext/_argext.pxd declares every one for Cython. Read from the source
tree: a function added to argext.h and forgotten elsewhere fails here, not in a user's build."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "csrc" / "include"
PXD = ROOT / "argext" / "_argext.pxd"

if not INCLUDE.is_dir():  # an installed test suite without the C sources
    pytest.skip("needs the source tree's csrc/include", allow_module_level=True)


def header_functions():
    text = (INCLUDE / "argext.h").read_text()
    return set(re.findall(r"^ARGEXT_API\b[^;(]*?\bargext_(\w+)\s*\(", text, re.MULTILINE))


def capsule_list():
    text = (INCLUDE / "argext_capi.h").read_text()
    body = re.search(r"#define ARGEXT_CAPI_FUNCTIONS\(X\)(.*?)\n\n", text, re.DOTALL).group(1)
    return re.findall(r"\bX\([^,]+,\s*(\w+),", body)


def capsule_macros():
    text = (INCLUDE / "argext_capi.h").read_text()
    return re.findall(r"^#define argext_(\w+) \(\*argext_capi_table->(\w+)\)$", text, re.MULTILINE)


def pxd_functions():
    return set(re.findall(r"^    [\w ]*?\**\s*argext_(\w+)\(", PXD.read_text(), re.MULTILINE))


def test_capsule_table_lists_every_function_of_the_header():
    table = capsule_list()
    assert table[0] == "version"  # first in every ABI version: import_argext's messages read it
    assert len(table) == len(set(table)), table
    assert set(table) == header_functions()


def test_each_call_macro_names_its_own_entry_in_table_order():
    macros = capsule_macros()
    assert all(name == entry for name, entry in macros), macros
    assert [name for name, _ in macros] == capsule_list()


def test_cython_declares_every_function_of_the_header():
    assert pxd_functions() == header_functions()
