"""argext: ONNX ArgMax, ArgMin and Hardmax, and multi-axis arg reductions,
computed by typed C kernels for every numeric dtype."""

import os

try:
    from argext._core import (
        _C_API,
        SpecError,
        SpecTypeError,
        argmax,
        argmin,
        get_isa,
        get_num_threads,
        hardmax,
        nanargmax,
        nanargmin,
        reduce_argmax,
        reduce_argmin,
        schema,
        set_isa,
        set_num_threads,
        supported_isas,
        version,
    )
except ImportError as e:  # pragma: no cover - depends on how Python was started
    raise ImportError(
        "argext's compiled extension could not be imported. If this is a source checkout, "
        "Python is importing the uncompiled tree: install argext (pip install .) and run "
        "from another directory, or with `python -I`."
    ) from e

__version__ = version()

from argext import _threadpoolctl

_threadpoolctl.install()


def get_include():
    """The directory of argext's C headers, argext.h and argext_capi.h, for
    extension modules that call the kernels through the capsule argext._C_API
    (the .pxd files for `cimport argext.capi` sit in the package itself)."""
    return os.path.join(os.path.dirname(__file__), "include")

__all__ = [
    "SpecError",
    "SpecTypeError",
    "argmax",
    "argmin",
    "get_include",
    "get_isa",
    "get_num_threads",
    "hardmax",
    "nanargmax",
    "nanargmin",
    "reduce_argmax",
    "reduce_argmin",
    "schema",
    "set_isa",
    "set_num_threads",
    "supported_isas",
    "__version__",
]
