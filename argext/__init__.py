"""argext: ONNX ArgMax, ArgMin and Hardmax, and multi-axis arg reductions,
computed by typed C kernels for every numeric dtype."""

import os as _os

try:
    from argext import _core
    from argext._core import *  # noqa: F403 - the public functions and exceptions
    from argext._core import _C_API
except ImportError as e:  # pragma: no cover - depends on how Python was started
    raise ImportError(
        "argext's compiled extension could not be imported. If this is a source checkout, "
        "Python is importing the uncompiled tree: install argext (pip install .) and run "
        "from another directory, or with `python -I`."
    ) from e

__version__ = _core.version()

from argext import _threadpoolctl

_threadpoolctl.install()


def get_include():
    """The directory of argext's C headers, argext.h and argext_capi.h, for
    extension modules that call the kernels through the capsule argext._C_API
    (the .pxd files for `cimport argext.capi` sit in the package itself)."""
    return _os.path.join(_os.path.dirname(__file__), "include")


def get_library_dirs():
    """The directories of libargext for C programs: a list of one, argext/lib,
    which holds the shared library (libargext.so, libargext.dylib, or argext.dll
    with its import library argext.lib), the static one (libargext.a,
    argext_static.lib) and pkgconfig/argext.pc."""
    return [_os.path.join(_os.path.dirname(__file__), "lib")]


def get_cmake_dir():
    """The directory of argext's CMake package (argextConfig.cmake): give it as
    argext_DIR, or its parent's parent in CMAKE_PREFIX_PATH, to find_package(argext)."""
    return _os.path.join(_os.path.dirname(__file__), "lib", "cmake", "argext")

# One list by hand: the stub's (__init__.pyi); stubtest holds this one equal to it.
__all__ = [*_core.__all__, "get_cmake_dir", "get_include", "get_library_dirs", "__version__"]
