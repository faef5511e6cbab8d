"""The benchmark (`python -I -m argext bench`): its arguments, a tiny run of
every case with every peer installed here (each result checked against NumPy's
inside the bench, each peer timed or blank with its reason), the pinning, the
read-bandwidth probe, the plot, the notes for missing peers and the progress
line. Every run is --quick (tiny shapes, 5 rounds): the figures mean nothing."""

import importlib.util
import io
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import pytest

import argext
from argext import _bench
from argext._bench.cases import CASES
from argext._bench.machine import numpy_disabled_for
from argext._bench.report import Progress

ARGEXT_PARENT = str(Path(argext.__file__).resolve().parent.parent)
PEERS = ("onnxruntime", "torch", "jax", "numkong", "bottleneck", "numbagg")


def installed(module):
    return importlib.util.find_spec(module) is not None


def run_bench(*args, code=""):
    """`_bench.main(args)` in a fresh `python -I`, then `code`; its stdout."""
    script = (f"import sys; sys.path.insert(0, {ARGEXT_PARENT!r})\n"
              f"from argext import _bench\n"
              f"assert _bench.main({list(args)!r}) == 0\n{code}")
    p = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p.stdout


# --- arguments ------------------------------------------------------------------------

def test_help_is_whole_and_lists_every_case(capsys):
    with pytest.raises(SystemExit) as e:
        _bench.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m argext bench")
    # The description is the whole docstring, not its first line cut mid-sentence.
    assert "side by side in one\nprocess" in out and "(needs matplotlib: argext[plot])." in out
    for case in CASES.values():
        assert f"  {case.name}" in out and case.what in out


@pytest.mark.parametrize("args, message", [
    (["--repeats", "3"], "--repeats must be at least 5"),
    (["--size", "1K"], "at least 4K"),
    (["--size", "12X"], "expected a number with K, M or G"),
    (["--plot", "out.pdf"], "expected a .png or .svg name"),
    (["--threads", "0"], "--threads 0"),
    (["--threads", "4097"], "--threads 4097"),
    (["--isa", "mmx"], "invalid choice"),
    (["--case", "nope"], "invalid choice"),
    (["--dtype", "complex64"], "invalid choice"),
])
def test_bad_arguments_are_refused(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        _bench.main(args)
    assert e.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("text, size", [("4K", 4096), ("32k", 32768), ("256KiB", 262144),
                                        ("64M", 64 << 20), ("1G", 1 << 30), ("5000", 5000)])
def test_sizes(text, size):
    assert _bench.parse_size(text) == size


def test_numpy_restricted_to_each_level():
    """Each level disables NumPy's targets above it; the architecture's best level
    none (on a CPU without AVX-512, AVX2 disables only the groups above it)."""
    levels = argext.supported_isas()
    disabled = [set(numpy_disabled_for(isa).split()) for isa in levels]
    if levels[-1] == "avx2":
        assert not disabled[-1] & {"X86_V3", "AVX2", "FMA3"}
    else:
        assert disabled[-1] == set()
    assert all(a >= b for a, b in zip(disabled, disabled[1:]))
    # NumPy 2.4+ groups its x86 targets as X86_V3/X86_V4 (older NumPy: AVX2, AVX512F, ...).
    if "avx2" in levels and "avx512" in levels and "X86_V4" in disabled[0]:
        assert "X86_V4" in disabled[levels.index("avx2")]
        assert "X86_V3" not in disabled[levels.index("avx2")]
        assert "X86_V3" in disabled[levels.index("sse42")]


# --- a tiny run of everything -----------------------------------------------------------

def test_every_case_with_every_peer(tmp_path):
    out = run_bench("--quick", "--quiet", "--json", str(tmp_path / "r.json"), *(
        ["--plot", str(tmp_path / "r.png")] if installed("matplotlib") else []),
        code="import os\n"
             "print('affinity', sorted({c for t in os.listdir('/proc/self/task') "
             "for c in os.sched_getaffinity(int(t))}))\n" if hasattr(os, "sched_getaffinity") else "")
    doc = json.loads((tmp_path / "r.json").read_text())
    rows = {(r["case"], r["dtype"]): r for r in doc["results"]}
    want = {(c.name, d) for c in CASES.values() if c.name != "dask" for d in c.dtypes
            if d != "bfloat16" or installed("ml_dtypes")}
    assert set(rows) == want
    for (case, dtype), r in rows.items():
        assert {"argext", "numpy"} <= set(r["seconds"]), (case, dtype)
        named = set(r["seconds"]) | set(r["blank"]) | set(r["lacking"])
        assert {p for p in PEERS if installed(p)} <= named, (case, dtype)
        assert all(reason for reason in r["blank"].values())
        if not r["per_call"]:
            assert all(f > 0 for f in r["fraction_of_probe"].values())
    # What the peers lack is said, not faked (only where the peer is installed).
    if installed("onnxruntime") and installed("ml_dtypes"):
        assert rows["logits", "bfloat16"]["blank"]["onnxruntime"] == "no ArgMax-13 kernel for bfloat16"
        assert rows["topk_logits5", "bfloat16"]["blank"]["onnxruntime"] == "TopK at opset 13 takes no bfloat16"
        assert "onnxruntime" in rows["nan_rows", "float32"]["lacking"]
    # TopK's rows carry argext's argmax of the same input, the yardstick of its GB/s.
    assert all("argext-argmax" in r["seconds"] for r in rows.values() if r["op"] == "topk")
    assert not any("argext-argmax" in r["seconds"] for r in rows.values() if r["op"] != "topk")
    if installed("numkong"):
        assert rows["last_index", "float32"]["blank"]["numkong"] == "no last-occurrence option"
        assert "numkong" in rows["nan_1d", "float32"]["seconds"]  # its argmax skips NaN
    for peer in ("torch", "jax"):
        if installed(peer):  # reversed views: a flip, timed
            assert peer in rows["reversed_rows", "float32"]["seconds"]
            assert rows["swapped_1d", "float32"]["blank"][peer] == "native byte order only"
    for peer in ("bottleneck", "numbagg"):
        if installed(peer):
            assert peer in rows["nan_rows", "float32"]["seconds"]
            assert rows["nan_1d", "float16"]["blank"][peer] == "no kernel for float16"
    assert set(rows["swapped_1d", "float32"]["seconds"]) >= {"argext", "argext-native"}
    # The table: its header, then a row per case whose first line names it.
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("case ")))
    assert lines[header].split() == ["case", "dtype", "shape", "axis", "contender", "time", "GB/s",
                                     "of", "probe", "vs", "base"]
    firsts = [line for line in lines[header + 1:] if line[:1].strip()]
    assert [line.split()[:2] for line in firsts[:len(rows)]] == [list(k) for k in rows]
    assert all(" argext " in line for line in firsts[:len(rows)])
    assert "read-bandwidth probe, 1 thread:" in out
    assert doc["machine"]["cpu"] and doc["machine"]["cpu"] in out
    if hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        assert f"pinned to CPU {cpu}" in out and doc["cpus"] == str(cpu)
        assert f"affinity [{cpu}]" in out  # every thread, the peers' pools too
    if installed("matplotlib"):
        png = (tmp_path / "r.png").read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 20000


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs 2 CPUs")
def test_each_run_follows_one_untimed_call():
    """A contender's first call after another's run (cold caches, JAX's threads
    winding down) is left out of its timing."""
    from argext._bench.run import _time
    done = []

    def call():
        done.append(1)
        if len(done) == 1:
            time.sleep(0.2)

    assert _time(call, 4) < 0.02 and len(done) == 5


def test_columns_stay_apart_for_ratios_in_the_thousands():
    """TopK's bfloat16 logits run 2500x NumPy's argpartition: the ratio still
    has a space before it."""
    from argext._bench.report import HEADER, format_row
    row = {"case": "topk_logits5", "dtype": "bfloat16", "shape": [32, 128256], "axis": -1,
           "seconds": {"argext": 142.7e-6, "numpy": 0.36237}, "ratio": {"argext": 2539.39, "numpy": 1.0},
           "gb_per_s": {"argext": 57.5, "numpy": 0.0}, "fraction_of_probe": {"argext": 0.57, "numpy": 0.0}}
    line = format_row(row).splitlines()[0]
    assert line.split()[-2:] == ["57%", "2539.39x*"], line
    assert len(line) <= len(HEADER) + 1, (line, HEADER)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs 2 CPUs")
def test_two_threads_pinned_with_both_probes(tmp_path):
    if not installed("matplotlib"):
        pytest.skip("matplotlib not installed")
    out = run_bench("--quick", "--quiet", "--threads", "2", "--case", "1d", "--case", "logits",
                    "--dtype", "float32", "--json", str(tmp_path / "r.json"), "--plot", str(tmp_path / "r.svg"))
    doc = json.loads((tmp_path / "r.json").read_text())
    cpus = sorted(os.sched_getaffinity(0))[:2]
    assert doc["cpus"] == f"{cpus[0]},{cpus[1]}" and f"pinned to CPU {cpus[0]},{cpus[1]}" in out
    assert set(doc["probes"]) == {"1", "2"}
    assert "argext 2" in out and "numpy 1" in out
    svg = (tmp_path / "r.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg and "1d float32" in svg


def test_one_level_in_cache():
    """--isa restarts the bench with NumPy restricted to the level; --size
    runs in-cache inputs repeatedly."""
    out = run_bench("--isa", "baseline", "--size", "32K", "--case", "1d", "--dtype", "int16",
                    "--quick", "--quiet")
    assert "isa=baseline" in out
    row = [line for line in out.splitlines() if line.startswith("1d ")]
    assert len(row) == 1 and " 16384 " in row[0], out
    if platform.machine() in ("x86_64", "AMD64"):
        assert "(targets: baseline only)" in out  # NumPy's AVX2/AVX-512 kernels disabled


@pytest.mark.skipif(not installed("distributed"), reason="dask.distributed not installed")
def test_dask_case(tmp_path):
    run_bench("--quick", "--quiet", "--case", "dask", "--dtype", "float32", "--json", str(tmp_path / "r.json"))
    (row,) = json.loads((tmp_path / "r.json").read_text())["results"]
    assert set(row["seconds"]) == {"argext", "dask"} and row["ratio"]["dask"] == 1


# --- without the peers -------------------------------------------------------------------

BLOCKED = PEERS + ("onnx", "matplotlib")
BLOCKED_RUN = f"""
import sys
sys.path.insert(0, {ARGEXT_PARENT!r})

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)

sys.meta_path.insert(0, Refuse())
from argext import _bench
code = _bench.main(sys.argv[1:])
assert not [m for m in sys.modules if m.split(".")[0] in {BLOCKED!r}]
sys.exit(code)
"""


def test_missing_peers_are_skipped_with_a_note():
    p = subprocess.run([sys.executable, "-I", "-c", BLOCKED_RUN, "--quick", "--quiet", "--case", "nan_rows",
                        "--case", "small"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    for peer in PEERS:
        if peer == "onnxruntime":
            assert "onnx not installed: skipping the onnxruntime column" in p.stdout \
                or "onnxruntime not installed: skipping the onnxruntime column" in p.stdout
        else:
            assert f"{peer} not installed: skipping the {peer} column" in p.stdout
    assert "small " in p.stdout and "nan_rows " in p.stdout


def test_plot_without_matplotlib_says_how_to_get_it():
    p = subprocess.run([sys.executable, "-I", "-c", BLOCKED_RUN, "--quick", "--plot", "x.png"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "--plot needs matplotlib: pip install 'argext[plot]'" in p.stderr


# --- the progress line -------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_line_on_a_terminal_after_the_delay():
    now = [0.0]
    term = Terminal()
    progress = Progress(3, stream=term, delay=3.0, clock=lambda: now[0])
    progress.start("logits float32 32x128256")
    assert term.getvalue() == ""  # a short run shows nothing
    now[0] = 5.0
    progress.step("round 2/7")
    assert term.getvalue() == "\rbench [1/3] logits float32 32x128256 round 2/7  5 s\x1b[K"
    progress.finish()
    progress.clear()
    assert term.getvalue().endswith("\r\x1b[K")
    progress.start("logits bfloat16 32x128256")
    assert "[2/3] logits bfloat16" in term.getvalue()
    progress.finish()
    progress.close()
    drawn = term.getvalue()
    assert drawn.endswith("\r\x1b[K")
    progress.print("probe")  # after close(): the table's last lines, no line redrawn
    assert term.getvalue() == drawn


@pytest.mark.parametrize("stream, enabled", [(io.StringIO(), True), (Terminal(), False)])
def test_no_progress_line_off_a_terminal_or_when_quiet(stream, enabled):
    progress = Progress(3, enabled=enabled, stream=stream, delay=0.0)
    progress.start("x")
    progress.step("round 1/5")
    progress.clear()
    assert stream.getvalue() == ""
