"""argext: ONNX ArgMax, ArgMin and Hardmax, and multi-axis arg reductions,
computed by typed C kernels for every numeric dtype."""

try:
    from argext._core import (
        SpecError,
        SpecTypeError,
        argmax,
        argmin,
        get_isa,
        hardmax,
        reduce_argmax,
        reduce_argmin,
        schema,
        set_isa,
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

__all__ = [
    "SpecError",
    "SpecTypeError",
    "argmax",
    "argmin",
    "get_isa",
    "hardmax",
    "reduce_argmax",
    "reduce_argmin",
    "schema",
    "set_isa",
    "supported_isas",
    "__version__",
]
