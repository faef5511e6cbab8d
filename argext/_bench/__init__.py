"""Times argext against the libraries users would pick instead (NumPy, ONNX
Runtime, PyTorch, JAX, NumKong, Bottleneck, numbagg), side by side in one
process, on the shapes users run (language-model logits, segmentation maps,
classifier outputs, column folds, reversed views) and on layouts sized by
--size.

Each case runs its contenders alternately, one run each per round, and reports
each one's median over the rounds, so that drifting load hits all alike. Each
run follows one call untimed: the run before may have left the machine slow. Every
contender's result is checked against NumPy's before timing; a peer that lacks
the operator, dtype or layout is left blank with the reason, and one that is not
installed is skipped with a one-line note. Inputs hold no extreme value of their
dtype (NumPy stops at the first one, which would fake its speed).

Threads: argext, ONNX Runtime, PyTorch and JAX run on --threads threads
(default 1); NumPy, NumKong, Bottleneck and numbagg on one. The whole process
is pinned to --threads CPUs (CPU 0 for one thread), since some peers ignore
their own thread settings. Times are wall clock; JAX's exclude compilation and
wait for the result.

A read-bandwidth probe (NumPy's streaming integer reductions over as many bytes
as the input, on one thread and on --threads threads) puts each GB/s in
context. --isa LEVEL runs argext's kernels of that level against NumPy
restricted to the same level (NPY_DISABLE_CPU_FEATURES, in a fresh interpreter).
--plot FILE draws GB/s against input size (needs matplotlib: argext[plot]).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

import argext

from . import contenders as peers
from .cases import ALL_DTYPES, CASES, FLOATS, MIB
from .machine import allowed_cpus, describe, numpy_disabled_for, pin
from .probe import RUN_BYTES, Probe
from .report import HEADER, LEGEND, Progress, format_row, size_label
from .run import run_case, run_dask_case

# Optional modules and what each is needed for (the note when one is missing).
OPTIONAL_DTYPES = {"ml_dtypes": "the bfloat16 dtype"}
OPTIONAL_CASES = {"dask": "the dask case", "distributed": "the dask case"}

# --quick: the size of sized cases, and the bytes a timed run reads.
QUICK_SIZE = 16 << 10
QUICK_RUN_BYTES = 256 << 10


def parse_size(text):
    """'32K', '256K', '4M', '64M', '1G' (binary units) or a byte count."""
    m = re.fullmatch(r"(\d+)([KMG]?)(i?B)?", text.strip(), re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected a number with K, M or G")
    size = int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]
    if size < 4096:
        raise argparse.ArgumentTypeError(f"size {text!r}: at least 4K")
    return size


def _output_file(text):
    if text.rsplit(".", 1)[-1].lower() not in ("png", "svg"):
        raise argparse.ArgumentTypeError(f"plot file {text!r}: expected a .png or .svg name")
    return text


def parser():
    isas = argext.supported_isas()
    width = max(map(len, CASES))
    cases = "\n".join(f"  {c.name:<{width}}  {c.what}" for c in CASES.values())
    p = argparse.ArgumentParser(prog="python -m argext bench", description=__doc__,
                                epilog=f"cases (--case; the workloads first, then the layouts):\n{cases}",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", action="append", choices=list(CASES), metavar="CASE",
                   help="case to run, repeatable (default: all but dask; listed below)")
    p.add_argument("--dtype", action="append", choices=ALL_DTYPES, metavar="DTYPE",
                   help="dtype to run, repeatable (default: each case's own list): " + ", ".join(ALL_DTYPES))
    p.add_argument("--size", action="append", type=parse_size, metavar="BYTES",
                   help="input bytes of the sized cases, repeatable, e.g. 32K, 256K, 4M, 1G "
                        "(default 64M); inputs under 64 MiB are called repeatedly per run, in cache")
    p.add_argument("--threads", type=int, default=1,
                   help="threads for argext, ONNX Runtime, PyTorch and JAX, and the CPUs the run "
                        "is pinned to (default 1)")
    p.add_argument("--isa", choices=isas, metavar="LEVEL",
                   help="argext's kernel level, against NumPy restricted to the same level "
                        f"(default: the best of both): {', '.join(isas)}")
    p.add_argument("--repeats", type=int, default=7, help="timed rounds per case (at least 5; default 7)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--plot", metavar="FILE", type=_output_file,
                   help="also draw GB/s against input size per contender (.png or .svg)")
    p.add_argument("--quick", action="store_true",
                   help="every case at a tiny shape (the sized ones at 16K unless --size says), "
                        "5 rounds, little repetition: shows that each case and peer runs "
                        "(the figures mean nothing)")
    p.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    return p


def _restart_with_numpy_at(isa, argv):
    """Runs the bench again in a fresh interpreter whose NumPy has only the
    targets of `isa` (NumPy reads its CPU features once, at import)."""
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=numpy_disabled_for(isa))
    flags = ["-I"] if sys.flags.isolated else []
    parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(argext.__file__))))
    code = (f"import sys; sys.path.insert(0, {parent!r}); from argext import _bench; "
            f"sys.exit(_bench.main({list(argv)!r}))")
    return subprocess.call([sys.executable, *flags, "-c", code], env=env)


def _importable(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _contenders(ops, threads, say):
    """The contenders that have one of `ops`, made (imported, threads set);
    a note for each whose module is missing."""
    made = []
    for cls in peers.ALL:
        if not any(hasattr(cls, op) for op in ops):
            continue
        missing = [m for m in (cls.module, *cls.needs) if not _importable(m)]
        if missing:
            say(f"{missing[0]} not installed: skipping the {cls.name} column")
            continue
        made.append(cls(threads))
    return made


def _units(args, cases, say):
    """(case, dtype, shape) in run order."""
    sizes = args.size or [QUICK_SIZE if args.quick else 64 * MIB]
    units = []
    for case in cases:
        for dtype in args.dtype or case.dtypes:
            if case.op == "hardmax" and dtype not in FLOATS:
                say(f"{case.name} {dtype} skipped: Hardmax takes float dtypes only")
                continue
            if dtype == "bfloat16" and not _importable("ml_dtypes"):
                continue
            shapes = [case.tiny] if args.quick and not case.sized else \
                [s for size in (sizes if case.sized else [None]) for s in case.shapes(dtype, size)]
            units += [(case, dtype, tuple(s)) for s in dict.fromkeys(map(tuple, shapes))]
    return units


def main(argv):
    p = parser()
    args = p.parse_args(argv)
    if args.quick:
        args.repeats = 5
    if args.repeats < 5:
        p.error("--repeats must be at least 5 (medians of fewer runs are noise)")
    cpus = allowed_cpus()
    if args.threads < 1 or (cpus is not None and args.threads > len(cpus)):
        p.error(f"--threads {args.threads}: this process may use {len(cpus or [])} CPUs")
    if args.plot:
        try:
            from .plot import require

            require()
        except ImportError as e:
            p.error(str(e))
    if args.plot and args.case and all(CASES[c].per_call for c in args.case):
        p.error("--plot: the per-call case has no bandwidth to draw")
    if args.isa:
        if os.environ.get("NPY_DISABLE_CPU_FEATURES", "") != numpy_disabled_for(args.isa):
            return _restart_with_numpy_at(args.isa, argv)
        argext.set_isa(args.isa)

    pinned = cpus[:args.threads] if cpus is not None and pin(cpus[:args.threads]) else None
    peers.set_thread_environment(args.threads)
    progress = Progress(0, enabled=not args.quiet)
    say = progress.print

    for module, what in OPTIONAL_DTYPES.items():
        if not _importable(module):
            say(f"{module} not installed: skipping {what}")
    selected = [CASES[c] for c in args.case] if args.case else [c for c in CASES.values() if c.name != "dask"]
    if any(c.name == "dask" for c in selected):
        missing = [m for m in OPTIONAL_CASES if not _importable(m)]
        if missing:
            say(f"{missing[0]} not installed: skipping {OPTIONAL_CASES[missing[0]]}")
            selected = [c for c in selected if c.name != "dask"]
    contenders = _contenders({c.op for c in selected if c.name != "dask"}, args.threads, say)
    info = describe(contenders)
    units = _units(args, selected, say)

    say(f"argext {info['argext']} isa={info['isa']} threads={args.threads}  numpy {info['numpy']} "
        f"(targets: {' '.join(info['numpy_targets']) or 'baseline only'})  {info['cpu']}")
    say("pinned to CPU " + ",".join(map(str, pinned)) if pinned else
        "not pinned: this OS offers no sched_setaffinity")
    say("threads: " + ", ".join(f"{c.name} {c.threads}" for c in contenders if not isinstance(c, peers.ArgextNative)))
    versions = {c.name: info.get(c.module, "?") for c in contenders if c.module != "argext"}
    say("peers: " + ", ".join(f"{name} {v}" for name, v in versions.items()))
    say(f"medians of {args.repeats} alternating runs\n{LEGEND}")
    say(HEADER)

    run_bytes = QUICK_RUN_BYTES if args.quick else RUN_BYTES
    probe = Probe(args.repeats, run_bytes)
    progress.total = len(units)
    rng = np.random.default_rng(0)
    rows, cluster = [], None
    started = time.monotonic()
    for case, dtype, shape in units:
        progress.start(f"{case.name} {dtype} {'x'.join(map(str, shape))}")
        if case.name == "dask":
            if cluster is None:
                import distributed

                cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0")
            row = run_dask_case(dtype, shape, args.repeats, rng, cluster, progress)
        else:
            row = run_case(case, dtype, shape, contenders, args.repeats, rng, probe, progress, run_bytes)
        row["sized"] = case.sized
        rows.append(row)
        progress.finish()
        say(format_row(row))
    if cluster is not None:
        cluster.close()
    progress.close()
    probes = probe.as_json()
    for threads, sizes in probes.items():
        say(f"read-bandwidth probe, {threads} thread{'s' if threads != '1' else ''}: " +
            ", ".join(f"{size_label(int(b))} {g:.1f} GB/s" for b, g in sizes.items()))
    doc = {"machine": describe(contenders), "threads": args.threads, "cpus": ",".join(map(str, pinned or [])) or "any",
           "repeats": args.repeats, "seconds": time.monotonic() - started, "probes": probes,
           "results": rows}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
    if args.plot:
        from .plot import draw

        draw(doc, args.plot)
        say(f"plot written to {args.plot}")
    return 0
