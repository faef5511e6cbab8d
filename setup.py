"""Build argext: the C core in csrc/ and the Cython front argext/_core.pyx."""

import platform
import re
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
CSRC = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "csrc").glob("*.c"))
# Public headers shipped in the package, at argext.get_include().
PUBLIC_HEADERS = ["csrc/argext.h", "csrc/argext_capi.h"]
HEADERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "csrc").glob("*.h"))


def version():
    """The one version source: ARGEXT_VERSION_STRING in csrc/argext.h."""
    header = (ROOT / "csrc" / "argext.h").read_text()
    return re.search(r'#define ARGEXT_VERSION_STRING "([^"]+)"', header).group(1)


# Per-file instruction-set flags for gcc/clang on x86-64: only the ISA's own
# kernel file may use its instructions, and dispatch.c runs it only on CPUs
# that have them. MSVC compiles intrinsics without flags; other
# architectures compile these files to nothing.
ISA_FLAGS = {
    "kernels_avx2.c": ["-mavx2"],
    "kernels_avx512.c": ["-mavx2", "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq"],
}
THREAD_SYMBOLS = ["argext_get_num_threads", "argext_set_num_threads", "argext_version"]
X86_64 = platform.machine().lower() in ("x86_64", "amd64", "x64")


class BuildExt(build_ext):
    """Optimisation flags for the compiler in use; never -march=native."""

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        flags = ["/O2"] if msvc else ["-O3", "-pthread"]
        # threadpoolctl finds argext's pool by these symbols of the extension module.
        links = [f"/EXPORT:{name}" for name in THREAD_SYMBOLS] if msvc else ["-pthread"]
        for ext in self.extensions:
            ext.extra_compile_args = flags + ext.extra_compile_args
            ext.extra_link_args = links + ext.extra_link_args
        if X86_64 and not msvc:
            compile_one = self.compiler._compile

            def compile_with_isa(obj, src, ext, cc_args, extra_postargs, pp_opts):
                extra = extra_postargs + ISA_FLAGS.get(Path(src).name, [])
                compile_one(obj, src, ext, cc_args, extra, pp_opts)

            self.compiler._compile = compile_with_isa
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
    include_dirs=["csrc", numpy.get_include()],
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
