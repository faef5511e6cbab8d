"""python -m argext as a command-line user meets it: --help, --version,
unknown commands and options (exit status 2, argparse's message, nothing run),
the bench's own arguments handed through; and the support matrix, each cell
checked against what the function does next to NumPy."""

import subprocess
import sys
from importlib import metadata

import numpy as np
import pytest

import argext
from argext.__main__ import support_matrix
from reference import ALL_DTYPES, comparable


def cli(*args):
    return subprocess.run([sys.executable, "-I", "-m", "argext", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_the_commands(flag):
    p = cli(flag)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith("usage: python -m argext")
    for command in ("check", "bench"):
        assert f"\n    {command} " in p.stdout


def test_version():
    p = cli("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"argext {metadata.version('argext')}"


@pytest.mark.parametrize("args, message", [
    (["bnch"], "invalid choice: 'bnch'"),
    (["--frob"], "unrecognized arguments: --frob"),
    (["check", "now"], "unrecognized arguments: now"),
    (["--libs", "bench"], "take no command or other arguments"),
])
def test_unknown_command_or_option_exits_2(args, message):
    """argparse's usage and message on stderr, exit status 2, and no self-check run."""
    p = cli(*args)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("usage: python -m argext") and message in p.stderr


def test_bench_parses_its_own_arguments():
    p = cli("bench", "--help")
    assert p.returncode == 0 and p.stdout.startswith("usage: python -m argext bench")
    p = cli("bench", "--case", "nosuchcase")
    assert p.returncode == 2 and "python -m argext bench: error" in p.stderr


def test_support_matrix_shows_every_function():
    rows = {line.split()[0]: line.split()[1:] for line in support_matrix().splitlines()}
    header = rows.pop("operator")
    computing = {"argmax", "argmin", "hardmax", "nanargmax", "nanargmin", "reduce_argmax",
                 "reduce_argmin", "topk"}
    assert computing <= set(argext.__all__)
    named = {name.split("-")[0].lower() if "-" in name else name for name in rows}
    assert named == computing
    assert all(len(cells) == len(header) for cells in rows.values())


NUMPY = {"reduce_argmax": lambda x: np.argmax(x).reshape(1), "reduce_argmin": lambda x: np.argmin(x).reshape(1),
         "nanargmax": np.nanargmax, "nanargmin": np.nanargmin}
CALL = {"reduce_argmax": lambda x: argext.reduce_argmax(x, [0]),
        "reduce_argmin": lambda x: argext.reduce_argmin(x, [0]),
        "nanargmax": argext.nanargmax, "nanargmin": argext.nanargmin}


@pytest.mark.parametrize("name", sorted(NUMPY))
def test_support_matrix_cells_are_what_the_functions_do(name):
    """A 'yes' computes NumPy's answer for that dtype, a '-' is refused."""
    rows = {line.split()[0]: line.split()[1:] for line in support_matrix().splitlines()}
    cells = dict(zip(rows["operator"], rows[name]))
    for dtype in ALL_DTYPES:
        x = np.array([3, 1, 7, 7, 0]).astype(dtype)
        if cells[dtype.name] == "yes":
            assert np.array_equal(CALL[name](x), NUMPY[name](comparable(x))), dtype
        else:
            assert cells[dtype.name] == "-"
            with pytest.raises(argext.SpecTypeError):
                CALL[name](x)
