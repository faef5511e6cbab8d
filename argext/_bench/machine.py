"""The machine a run measures: the CPU's name, the cores it is pinned to, and
NumPy restricted to one of argext's ISA levels."""

import os
import platform
import sys

import numpy as np

import argext

# The argext level whose instructions each of NumPy's x86 dispatch targets
# needs; --isa LEVEL disables the targets of levels above LEVEL. Any other
# target (NEON and its extensions) needs the "neon" level.
_X86_V4 = ("X86_V4", "AVX512F", "AVX512CD", "AVX512_KNL", "AVX512_KNM", "AVX512_SKX",
           "AVX512_CLX", "AVX512_CNL", "AVX512_ICL", "AVX512_SPR", "AVX5124FMAPS", "AVX5124VNNIW")
_X86_V3 = ("X86_V3", "AVX", "AVX2", "F16C", "FMA3", "FMA4", "XOP")
_X86_V2 = ("X86_V2", "SSE3", "SSSE3", "SSE41", "SSE42", "POPCNT")


def _numpy_target_level(target):
    if target in _X86_V4 or target.startswith("AVX512"):
        return "avx512"
    if target in _X86_V3:
        return "avx2"
    if target in _X86_V2:
        return "sse42"
    return "neon"


def _umath():
    try:
        from numpy._core import _multiarray_umath
    except ImportError:  # NumPy 1.x
        from numpy.core import _multiarray_umath
    return _multiarray_umath


def numpy_disabled_for(isa):
    """NPY_DISABLE_CPU_FEATURES that restricts NumPy to argext's level `isa`:
    the targets of levels above it in argext.supported_isas() (lowest first)
    or not run here at all."""
    levels = argext.supported_isas()
    rank = levels.index(isa)
    return " ".join(t for t in _umath().__cpu_dispatch__
                    if _numpy_target_level(t) not in levels[:rank + 1])


def numpy_active_targets():
    """NumPy's dispatch targets this process runs (the CPU has them, none disabled)."""
    umath = _umath()
    return [t for t in umath.__cpu_dispatch__ if umath.__cpu_features__.get(t)]


def _cpuinfo():
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first CPU's block
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def _amd_core(family, model):
    """AMD's core generation from the CPU family and model (cpuid)."""
    if family == 26:
        return "Zen 5"
    if family == 25:
        return "Zen 4" if 0x10 <= model <= 0x1F or 0x60 <= model <= 0xAF else "Zen 3"
    if family == 23:
        return "Zen 2" if model >= 0x30 else "Zen/Zen+"
    return None


def cpu_name():
    """The CPU as /proc/cpuinfo names it, with AMD's core generation (virtual
    machines often report only "AMD EPYC") and family/model."""
    info = _cpuinfo()
    name = info.get("model name") or platform.processor() or platform.machine()
    if "cpu family" in info and "model" in info:
        family, model = int(info["cpu family"]), int(info["model"])
        core = _amd_core(family, model) if "AMD" in name else None
        if core and core not in name:
            name = f"{name} {core}"
        name += f" (family {family}, model {model})"
    return name


def allowed_cpus():
    """CPUs this process may run on (None where the OS does not say)."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return None


def pin(cpus):
    """Holds every thread of this process, and every thread it starts later,
    to `cpus` (as `taskset -a -p` would). Returns False where the OS cannot."""
    if not hasattr(os, "sched_setaffinity"):
        return False
    try:
        tasks = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        tasks = [0]
    for task in tasks:
        try:
            os.sched_setaffinity(task, cpus)
        except ProcessLookupError:  # a thread that ended meanwhile
            pass
    return True


def describe(contenders):
    """What the run ran on, for the header and the JSON: the CPU, argext's
    level, and the version of every library it imported."""
    info = {"cpu": cpu_name(), "machine": platform.machine(), "python": platform.python_version(),
            "argext": argext.__version__, "isa": argext.get_isa(), "numpy": np.__version__,
            "numpy_targets": numpy_active_targets()}
    for module in [c.module for c in contenders] + ["ml_dtypes", "onnx", "dask", "distributed"]:
        version = getattr(sys.modules.get(module), "__version__", None)
        if version:
            info.setdefault(module, version)
    return info
