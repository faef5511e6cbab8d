# Runtime controls (version, kernel ISA level, threads) and the C API capsule for other extension modules.


def version():
    """The C core's version string."""
    return argext_version().decode()


_ISA_NAMES = tuple(argext_isa_name(<argext_isa>i).decode() for i in range(ARGEXT_ISA_COUNT))
# Lowest first: the rank of the one ISA list (csrc/kernels/isa_list.h), as dispatch.c ranks them.
_ISA_RANK = {n: argext_isa_rank(<argext_isa>i) for i, n in enumerate(_ISA_NAMES)}


def get_isa():
    """Name of the kernel instruction-set level in use."""
    return _ISA_NAMES[argext_get_isa()]


def supported_isas():
    """Names of the levels this CPU and build can run, lowest first."""
    return tuple(sorted((n for i, n in enumerate(_ISA_NAMES) if argext_isa_supported(<argext_isa>i)),
                        key=_ISA_RANK.__getitem__))


def set_isa(name):
    """Force a kernel level (a name of supported_isas(): "baseline", "sse2", "sse42",
    "avx2", "avx512" on x86-64, "neon" on arm64) or None for the best."""
    cdef int i
    if name is None:
        i = argext_isa_best()
    elif name in _ISA_NAMES:
        i = _ISA_NAMES.index(name)
    else:
        raise ValueError(f"set_isa: unknown ISA {name!r} (known: {', '.join(_ISA_NAMES)})")
    if argext_set_isa(<argext_isa>i) != ARGEXT_OK:
        raise ValueError(f"set_isa: {name!r} is not supported here (supported: "
                         f"{', '.join(supported_isas())})")


def get_num_threads():
    """Threads a large call may use (the calling thread included)."""
    return argext_get_num_threads()


def set_num_threads(n):
    """Sets the threads a large call may use: an int in [1, 1024], or None for
    the default (ARGEXT_NUM_THREADS, else the CPUs this process may use)."""
    if n is None:
        argext_set_num_threads(0)
        return
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_num_threads: n must be an int or None, got {n!r}")
    if not 1 <= n <= ARGEXT_MAX_THREADS:
        raise ValueError(f"set_num_threads: n must be in [1, {ARGEXT_MAX_THREADS}], got {n}")
    argext_set_num_threads(n)


# ---------------------------------------------------------------------------
# The C API capsule argext._C_API for other extension modules: the table of
# csrc/include/argext_capi.h, filled with this module's own kernels.
cdef extern from *:
    """
    #define ARGEXT_CAPI_PROVIDER
    #include "argext_capi.h"

    static PyObject *argext_capi_capsule(void)
    {
        return PyCapsule_New((void *)&argext_capi_provided, ARGEXT_CAPI_NAME, NULL);
    }
    """
    object argext_capi_capsule()

_C_API = argext_capi_capsule()
