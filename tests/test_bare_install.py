"""A bare install: with only NumPy importable (the optional modules refused by a
meta-path finder in a fresh interpreter), `python -I -m argext` runs its
self-check of every public function and `python -I -m argext bench` runs,
each skipping what is missing with a one-line note."""

import subprocess
import sys

OPTIONAL = ("ml_dtypes", "onnx", "onnxruntime", "torch", "dask", "distributed", "jax", "numkong",
            "bottleneck", "numbagg", "matplotlib")

# Runs `python -m argext ARGS` with OPTIONAL unimportable, then checks that none got in.
BLOCKED_RUN = f"""
import runpy, sys
BLOCKED = {OPTIONAL!r}

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Refuse())
sys.argv = ["argext"] + sys.argv[1:]
try:
    runpy.run_module("argext", run_name="__main__", alter_sys=True)
finally:
    leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    assert not leaked, leaked
"""


def run_bare(*args):
    p = subprocess.run([sys.executable, "-I", "-c", BLOCKED_RUN, *args],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p.stdout


def test_blocker_refuses_the_optional_modules():
    p = subprocess.run([sys.executable, "-I", "-c", BLOCKED_RUN.replace(
        'runpy.run_module("argext", run_name="__main__", alter_sys=True)', "import ml_dtypes")],
        capture_output=True, text=True)
    assert p.returncode != 0 and "blocked" in p.stderr


def test_self_check_runs_bare():
    out = run_bare()
    assert "self-check passed: ArgMax/ArgMin 1, 11, 12, 13; Hardmax 1, 11, 13; " \
           "reduce_argmax/reduce_argmin" in out
    assert "bfloat16 not checked: ml_dtypes is not installed" in out


def test_bench_runs_bare():
    out = run_bare("bench", "--case", "small", "--dtype", "float32", "--dtype", "bfloat16",
                   "--repeats", "5")
    for module in ("ml_dtypes", "onnxruntime", "torch", "jax", "numkong"):
        assert f"{module} not installed: skipping" in out
    lines = out.splitlines()
    (first,) = [i for i, line in enumerate(lines) if line.startswith("small ")]
    assert "float32" in lines[first] and " argext " in lines[first] and " numpy " in lines[first + 1]
