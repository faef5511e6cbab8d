"""Build argext: the C core in csrc/ and the Cython front argext/_core.pyx."""

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# Every C file of every layer (csrc/api, engine, runtime, kernels): a new file needs no edit here.
CSRC = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "csrc").rglob("*.c"))
# Public headers shipped in the package, at argext.get_include().
PUBLIC_HEADERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "csrc" / "include").glob("*.h"))
HEADERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "csrc").rglob("*.h"))


def version():
    """The one version source: ARGEXT_VERSION_STRING in csrc/include/argext.h."""
    header = (ROOT / "csrc" / "include" / "argext.h").read_text()
    return re.search(r'#define ARGEXT_VERSION_STRING "([^"]+)"', header).group(1)


# Each ISA's kernel file compiles its own code for its instruction set with a
# target pragma (kernels.h), so gcc and clang need no per-file flags, and cross
# and multi-architecture builds (macOS universal2) work. MSVC on x64 also gets
# /arch on the AVX files, so that the compiler's own code there may use VEX.
MSVC_X64_ARCH = {
    "kernels_avx2.c": ["/arch:AVX2"],
    "kernels_avx512.c": ["/arch:AVX512"],
}
THREAD_SYMBOLS = ["argext_get_num_threads", "argext_set_num_threads", "argext_version"]


def build_jobs():
    """Compiler processes at once: the CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


class BuildExt(build_ext):
    """Optimisation flags for the compiler in use (never -march=native); the C
    files compiled in parallel, since the ISA kernel files take the longest."""

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        flags = ["/O2"] if msvc else ["-O3", "-pthread"]
        # threadpoolctl finds argext's pool by these symbols of the extension module.
        links = [f"/EXPORT:{name}" for name in THREAD_SYMBOLS] if msvc else ["-pthread"]
        for ext in self.extensions:
            ext.extra_compile_args = flags + ext.extra_compile_args
            ext.extra_link_args = links + ext.extra_link_args
        arch = MSVC_X64_ARCH if msvc and self.plat_name == "win-amd64" else {}
        compile_all = self.compiler.compile

        def compile_each(sources, *args, extra_postargs=None, **kwargs):
            def one(src):
                extra = (extra_postargs or []) + arch.get(Path(src).name, [])
                return compile_all([src], *args, extra_postargs=extra, **kwargs)

            with ThreadPoolExecutor(build_jobs()) as pool:
                return [obj for objects in pool.map(one, sources) for obj in objects]

        self.compiler.compile = compile_each
        super().build_extensions()


class BuildPy(build_py):
    """Copies the public headers into argext/include of the build."""

    def run(self):
        super().run()
        include = Path(self.build_lib) / "argext" / "include"
        self.mkpath(str(include))
        for header in PUBLIC_HEADERS:
            self.copy_file(str(ROOT / header), str(include / Path(header).name))


extension = Extension(
    "argext._core",
    sources=["argext/_core.pyx"] + CSRC,
    # Includes are written relative to csrc/ ("kernels/kernels.h"); the public headers by name.
    include_dirs=["csrc", "csrc/include", numpy.get_include()],
    depends=HEADERS,  # a changed header rebuilds the C files
    define_macros=[
        ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
        # The oldest NumPy argext runs on (pyproject: numpy>=1.23.5), whatever NumPy 2.x builds it.
        ("NPY_TARGET_VERSION", "NPY_1_23_API_VERSION"),
    ],
)

setup(
    version=version(),
    ext_modules=cythonize([extension], compiler_directives={"language_level": 3}),
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
)
