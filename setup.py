"""Build argext: the C core in csrc/ and the Cython front argext/_core.pyx; and, from
the same compiled objects, libargext (shared and static) with argext.pc and the CMake
package in argext/lib, for C programs built against the installed package."""

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import CompileError

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


def msvc_x64_arch():
    """MSVC's /arch flag per ISA kernel file, from the one ISA list (csrc/kernels/isa_list.h):
    gcc and clang compile each file for its level by a target pragma; MSVC on x64 also gets
    /arch on the AVX files, so that the compiler's own code there may use VEX."""
    rows = re.findall(r'X\((\w+), (\w+), \d+, \w+, "[^"]*", "([^"]*)"\)',
                      (ROOT / "csrc" / "kernels" / "isa_list.h").read_text())
    return {f"{name}.c": [flag] for _, name, flag in rows if flag}


MSVC_X64_ARCH = msvc_x64_arch()
THREAD_SYMBOLS = ["argext_get_num_threads", "argext_set_num_threads", "argext_version"]


def build_jobs():
    """Compiler processes at once: the CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


class BuildExt(build_ext):
    """Optimisation flags for the compiler in use (never -march=native), without
    debug information (-g0: Python's own CFLAGS ask for -g, which made the module
    15 times larger); only ARGEXT_API functions visible. The C files compiled in
    parallel, since the ISA kernel files take the longest; their objects then
    also make libargext."""

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        # /GL- : setuptools compiles with /GL, whose objects only the same MSVC version can
        # link; argext_static.lib is made of these objects and must link with any.
        flags = ["/O2", "/GL-"] if msvc else ["-O3", "-g0", "-fvisibility=hidden", "-pthread"]
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
                reused = self.reusable_object(src, extra, kwargs)
                if reused:
                    return [reused]
                objects = compile_all([src], *args, extra_postargs=extra, **kwargs)
                self.record_command(src, extra, kwargs)
                return objects

            # The ISA kernel files first: each takes minutes, the others seconds, and one
            # started after the rest would compile alone at the end (a CPU idle for a minute
            # of CI's first install on a Zen 3; aarch64's neon.c came after 20 files).
            sources = list(sources)
            order = sorted(sources, key=lambda src: Path(src).parent.name != "isa")
            with ThreadPoolExecutor(build_jobs()) as pool:
                objects = dict(zip(order, pool.map(one, order)))
            return [obj for src in sources for obj in objects[src]]

        self.compiler.compile = compile_each
        super().build_extensions()

    # A second `pip install .` of the same tree (the README's install, then its test extra)
    # regenerates _core.c, since pip's fresh build environment holds newer numpy .pxd files,
    # and setuptools then recompiles every source. A C core object is reused instead when it is
    # newer than its source and every csrc/ header and was compiled by the same command.
    def object_and_command(self, src, extra, kwargs):
        obj = self.compiler.object_filenames([src], output_dir=kwargs.get("output_dir"))[0]
        inside = [d for d in kwargs.get("include_dirs") or [] if not os.path.isabs(d)]
        command = [*self.compiler.compiler_so, *map(str, kwargs.get("macros") or []), *inside, *extra]
        return Path(obj), "\n".join(command)

    def reusable_object(self, src, extra, kwargs):
        if not self.records_commands(src):
            return None
        obj, command = self.object_and_command(src, extra, kwargs)
        record = obj.with_suffix(".command")
        if (obj.is_file() and record.is_file() and record.read_text() == command and
                obj.stat().st_mtime > max((ROOT / f).stat().st_mtime for f in [src, *HEADERS])):
            return str(obj)
        record.unlink(missing_ok=True)  # recorded again once the new object is whole
        return None

    def records_commands(self, src):
        return src.startswith("csrc") and hasattr(self.compiler, "compiler_so")  # not MSVC's

    def record_command(self, src, extra, kwargs):
        if self.records_commands(src):
            obj, command = self.object_and_command(src, extra, kwargs)
            obj.with_suffix(".command").write_text(command)

    def build_extension(self, ext):
        super().build_extension(ext)
        package = Path(self.get_ext_fullpath(ext.name)).parent
        objects = self.compiler.object_filenames(CSRC, output_dir=self.build_temp)
        Library(self.compiler, package / "lib").build(objects)


class Library:
    """libargext in the package's lib/ folder, linked from the objects the
    extension was built from (the C core compiled once for both), with argext.pc
    and the CMake package argext, whose paths are relative to their own place.

    Linux: libargext.so (SONAME libargext.so: a wheel cannot hold the usual
    symlinks) and libargext.a; macOS: libargext.dylib (install name
    @rpath/libargext.dylib) and libargext.a; Windows: argext.dll with its import
    library argext.lib, and argext_static.lib."""

    def __init__(self, compiler, lib):
        self.compiler, self.lib = compiler, lib
        self.windows = compiler.compiler_type == "msvc"
        self.macos = sys.platform == "darwin"
        if self.windows:
            self.shared, self.link_name, self.static = "argext.dll", "argext.lib", "argext_static.lib"
        else:
            self.shared = "libargext.dylib" if self.macos else "libargext.so"
            self.link_name, self.static = self.shared, "libargext.a"

    def build(self, objects):
        self.lib.mkdir(parents=True, exist_ok=True)
        self.compiler.create_static_lib(objects, Path(self.static).stem.removeprefix("lib"),
                                        output_dir=str(self.lib))
        if self.windows:
            # MSVC exports what it is told: argext.h's ARGEXT_API functions.
            self.compiler.link_shared_object(objects, self.shared, output_dir=str(self.lib),
                                             export_symbols=public_functions())
            implib = Path(objects[0]).parent / self.link_name  # where link() puts it
            self.compiler.move_file(str(implib), str(self.lib / self.link_name))
        else:
            self.compiler.spawn([*self.shared_linker(), *objects, "-o", str(self.lib / self.shared)])
        self.write_pkgconfig()
        self.write_cmake_package()

    def shared_linker(self):
        """Python's command for linking extension modules (its compiler and arch
        flags), turned into one that makes a shared library."""
        # Not the build machine's rpaths (Python's LDSHARED may carry its own lib folder).
        command = [c for c in self.compiler.linker_so if not c.startswith("-Wl,-rpath")]
        if self.macos:  # a -bundle that leaves symbols to the interpreter -> a dylib
            for i in reversed(range(len(command))):
                if command[i] == "-undefined":
                    del command[i:i + 2]
            command = [c for c in command if c != "-bundle"]
            return command + ["-dynamiclib", "-install_name", f"@rpath/{self.shared}", "-pthread"]
        return command + [f"-Wl,-soname,{self.shared}", "-pthread"]

    def write_pkgconfig(self):
        """csrc/argext.pc.in, with the prefix two folders above its own (the package)."""
        values = {"PC_PREFIX": "${pcfiledir}/../..", "CMAKE_INSTALL_LIBDIR": "lib",
                  "CMAKE_INSTALL_INCLUDEDIR": "include", "PROJECT_VERSION": version(),
                  # A static libargext needs the threads library: pkg-config --static adds it.
                  "PC_LIBS_PRIVATE": "" if self.windows else "-pthread",
                  # The library sits in a Python package, on no loader path: programs find it by rpath.
                  "PC_LIBS_RPATH": "" if self.windows else " -Wl,-rpath,${libdir}"}
        template = (ROOT / "csrc" / "argext.pc.in").read_text()
        (self.lib / "pkgconfig").mkdir(exist_ok=True)
        (self.lib / "pkgconfig" / "argext.pc").write_text(
            re.sub(r"@(\w+)@", lambda m: values[m.group(1)], template))

    def write_cmake_package(self):
        """csrc/argextConfig.cmake.in, with the imported targets and the version
        check that CMake's install(EXPORT) and write_basic_package_version_file
        write for a CMake build of csrc/."""
        folder = self.lib / "cmake" / "argext"
        folder.mkdir(parents=True, exist_ok=True)
        config = (ROOT / "csrc" / "argextConfig.cmake.in").read_text()
        (folder / "argextConfig.cmake").write_text(config.replace("@PACKAGE_INIT@", CMAKE_INIT))
        shared_location = f"${{_argext_prefix}}/lib/{self.shared}"
        implib = f'\n    IMPORTED_IMPLIB "${{_argext_prefix}}/lib/{self.link_name}"' if self.windows else ""
        soname = "" if self.windows else f'\n    IMPORTED_SONAME "{"@rpath/" if self.macos else ""}{self.shared}"'
        (folder / "argextTargets.cmake").write_text(CMAKE_TARGETS.format(
            shared=shared_location, implib=implib, soname=soname,
            static=f"${{_argext_prefix}}/lib/{self.static}"))
        major, minor, _ = version().split(".")
        (folder / "argextConfigVersion.cmake").write_text(CMAKE_VERSION.format(
            version=version(), major_minor=f"{major}.{minor}", sizeof_void_p=8 if sys.maxsize > 2**32 else 4))


def public_functions():
    """The names of the functions argext.h exports (ARGEXT_API)."""
    header = (ROOT / "csrc" / "include" / "argext.h").read_text()
    names = re.findall(r"^ARGEXT_API\b[^;(]*?\b(\w+)\s*\(", header, re.MULTILINE)
    if not names:
        raise CompileError("found no ARGEXT_API function in argext.h")
    return names


# What configure_package_config_file puts for @PACKAGE_INIT@ that argextConfig.cmake.in uses.
CMAKE_INIT = """\
# argext has no components: a required one is missing.
macro(check_required_components _NAME)
  foreach(comp ${${_NAME}_FIND_COMPONENTS})
    if(${_NAME}_FIND_REQUIRED_${comp})
      set(${_NAME}_FOUND FALSE)
    endif()
  endforeach()
endmacro()"""

CMAKE_TARGETS = """\
# argext's imported targets in the Python package (argext/lib/cmake/argext/ -> argext/).
get_filename_component(_argext_prefix "${{CMAKE_CURRENT_LIST_DIR}}/../../.." ABSOLUTE)
if(NOT TARGET argext::argext)
  add_library(argext::argext SHARED IMPORTED)
  set_target_properties(argext::argext PROPERTIES
    IMPORTED_LOCATION "{shared}"{implib}{soname}
    INTERFACE_INCLUDE_DIRECTORIES "${{_argext_prefix}}/include"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
  add_library(argext::argext_static STATIC IMPORTED)
  set_target_properties(argext::argext_static PROPERTIES
    IMPORTED_LOCATION "{static}"
    INTERFACE_INCLUDE_DIRECTORIES "${{_argext_prefix}}/include"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
unset(_argext_prefix)
"""

# SameMinorVersion, as csrc/CMakeLists.txt asks of write_basic_package_version_file.
CMAKE_VERSION = """\
set(PACKAGE_VERSION "{version}")
if(NOT PACKAGE_FIND_VERSION)  # find_package(argext) without a version
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION OR
       NOT "${{PACKAGE_FIND_VERSION_MAJOR}}.${{PACKAGE_FIND_VERSION_MINOR}}" STREQUAL "{major_minor}")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
# The libraries are for the pointer size of the Python that built them.
if(CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P STREQUAL "{sizeof_void_p}")
  math(EXPR installedBits "{sizeof_void_p} * 8")
  set(PACKAGE_VERSION "${{PACKAGE_VERSION}} (${{installedBits}}bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
"""


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
    # Includes are written relative to csrc/ ("kernels/abi.h"); the public headers by name.
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
