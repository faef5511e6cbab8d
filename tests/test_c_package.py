"""C from the installed package, no checkout: a C program and a CMake project
built against what `pip install` put in site-packages (argext/include,
argext/lib: libargext shared and static, argext.pc, the CMake package), found
through `python -m argext --cflags --libs / --pkgconfigdir / --cmakedir`, run
without LD_LIBRARY_PATH, and their answers compared with NumPy. Skipped, with
the reason, only where no compiler (or cmake, pkg-config) exists."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import argext

ROOT = Path(__file__).resolve().parent.parent
CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
CMAKE = shutil.which("cmake")
POSIX = sys.platform != "win32"

# Prints the argmax along axis 1 and the argmin along axis 0 (last occurrence) of a
# 4x5 float32 matrix with ties, NaN and -0.0/+0.0, through the shared or static library.
PROGRAM = r"""
#include <math.h>
#include <stdio.h>
#include <argext.h>

int main(void)
{
    float x[4][5] = {{1, 7, 7, 0, -1}, {-0.0f, 0.0f, -0.0f, -3, 2}, {4, NAN, 4, 9, NAN}, {2, 2, 2, 2, 2}};
    int64_t shape[2] = {4, 5}, rows[4], cols[5], rows_shape[1] = {4}, cols_shape[1] = {5};
    argext_tensor in = {x, ARGEXT_FLOAT32, 2, shape, NULL};
    argext_tensor r = {rows, ARGEXT_INT64, 1, rows_shape, NULL}, c = {cols, ARGEXT_INT64, 1, cols_shape, NULL};
    if (argext_argmax(&in, &r, 1, 0, 0) != ARGEXT_OK || argext_argmin(&in, &c, 0, 0, 1) != ARGEXT_OK)
        return 1;
    for (int i = 0; i < 4; i++) printf("%lld ", (long long)rows[i]);
    for (int i = 0; i < 5; i++) printf("%lld ", (long long)cols[i]);
    printf("%s\n", argext_version());
    return 0;
}
"""
X = np.array([[1, 7, 7, 0, -1], [-0.0, 0.0, -0.0, -3, 2], [4, np.nan, 4, 9, np.nan], [2, 2, 2, 2, 2]],
             np.float32)


def expected():
    last_min = X.shape[0] - 1 - np.argmin(np.flip(X, 0), axis=0)
    return [str(i) for i in [*np.argmax(X, axis=1), *last_min]] + [argext.__version__]


def run(cmd, **kwargs):
    p = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert p.returncode == 0, f"{cmd} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p.stdout


def clean_env():
    """No loader path: the program must find libargext by what its build put in it."""
    return {k: v for k, v in os.environ.items()
            if k not in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PKG_CONFIG_PATH")}


def argext_says(*flags):
    return run([sys.executable, "-I", "-m", "argext", *flags]).split()


@pytest.fixture(scope="module")
def cc():
    if CC is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    if not POSIX:
        pytest.skip("the test drives a Unix-style compiler command (the CMake test covers MSVC)")
    return CC


def test_the_package_holds_the_library():
    (lib,) = argext.get_library_dirs()
    names = {"linux": ["libargext.so", "libargext.a"], "darwin": ["libargext.dylib", "libargext.a"],
             "win32": ["argext.dll", "argext.lib", "argext_static.lib"]}
    for name in names.get(sys.platform, names["linux"]) + ["pkgconfig/argext.pc"]:
        assert (Path(lib) / name).is_file(), name
    for name in ("argextConfig.cmake", "argextConfigVersion.cmake", "argextTargets.cmake"):
        assert (Path(argext.get_cmake_dir()) / name).is_file(), name
    assert (Path(argext.get_include()) / "argext.h").is_file()
    assert argext_says("--cmakedir") == [argext.get_cmake_dir()]


def test_shared_library_exports_only_the_api(cc):
    """libargext.so's dynamic symbols are argext.h's functions, no internals; it
    carries no rpath of the machine that built it."""
    if shutil.which("nm") is None or shutil.which("readelf") is None or sys.platform != "linux":
        pytest.skip("needs nm and readelf on Linux")
    (lib,) = argext.get_library_dirs()
    dynamic = run(["readelf", "-d", os.path.join(lib, "libargext.so")])
    assert "RPATH" not in dynamic and "RUNPATH" not in dynamic
    out = run(["nm", "-D", "--defined-only", os.path.join(lib, "libargext.so")])
    exported = {line.split()[-1] for line in out.splitlines() if " T " in line}
    header = (Path(argext.get_include()) / "argext.h").read_text()
    api = set(re.findall(r"^ARGEXT_API\b[^;(]*?\b(\w+)\s*\(", header, re.M))
    assert exported == api


def test_program_with_python_m_argext_flags(cc, tmp_path):
    (tmp_path / "app.c").write_text(PROGRAM)
    run([cc, "-std=c99", "-Wall", "-Werror", "app.c", *argext_says("--cflags", "--libs"), "-o", "app"],
        cwd=tmp_path)
    assert run([tmp_path / "app"], env=clean_env()).split() == expected()


def test_program_with_pkg_config(cc, tmp_path):
    if shutil.which("pkg-config") is None:
        pytest.skip("pkg-config is not on PATH")
    env = dict(clean_env(), PKG_CONFIG_PATH=argext_says("--pkgconfigdir")[0])
    assert run(["pkg-config", "--modversion", "argext"], env=env).strip() == argext.__version__
    flags = run(["pkg-config", "--cflags", "--libs", "argext"], env=env).split()
    (tmp_path / "app.c").write_text(PROGRAM)
    run([cc, "-std=c99", "app.c", *flags, "-o", "app"], cwd=tmp_path)
    assert run([tmp_path / "app"], env=clean_env()).split() == expected()


def test_program_with_the_static_library(cc, tmp_path):
    """libargext.a and `pkg-config --static`'s threads flag: the program needs no libargext.so."""
    (lib,) = argext.get_library_dirs()
    static = os.path.join(lib, "libargext.a")
    (tmp_path / "app.c").write_text(PROGRAM)
    run([cc, "-std=c99", "app.c", *argext_says("--cflags"), static, "-pthread", "-o", "app"],
        cwd=tmp_path)
    if shutil.which("readelf") and sys.platform == "linux":
        assert "libargext" not in run(["readelf", "-d", tmp_path / "app"])
    assert run([tmp_path / "app"], env=clean_env()).split() == expected()


def test_readme_commands(cc, tmp_path):
    """The README's commands for C against the installed package, as written (but
    `pip install`), with the README's rows.c: `python` is this interpreter."""
    if shutil.which("pkg-config") is None:
        pytest.skip("pkg-config is not on PATH (the README's second command uses it)")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n### Plain C: libargext\n", 1)[1].split("\n### ", 1)[0]
    (program,) = [s for s in re.findall(r"```c\n(.*?)```", section, re.S) if "int main" in s]
    (commands,) = [s for s in re.findall(r"```sh\n(.*?)```", section, re.S) if "python -m argext" in s]
    (tmp_path / "rows.c").write_text(program)
    script = "\n".join(line for line in commands.splitlines() if not line.startswith("pip install"))
    bin = tmp_path / "bin"
    bin.mkdir()
    (bin / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (bin / "python").chmod(0o755)
    env = dict(clean_env(), PATH=f"{bin}{os.pathsep}{os.environ['PATH']}")
    out = run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env)
    x = np.array([[3, 1, 4], [1, 5, 9]], np.float32)
    want = " ".join(str(i) for i in np.argmax(x, axis=1))
    assert out.splitlines() and all(line == want for line in out.splitlines()), out


CONSUMER = """\
cmake_minimum_required(VERSION 3.16)
project(consumer LANGUAGES C)
find_package(argext {version} CONFIG REQUIRED)
message(STATUS "found argext ${{argext_VERSION}}")
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE argext::argext)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE argext::argext_static)
"""


@pytest.mark.skipif(CMAKE is None, reason="cmake is not on PATH")
def test_cmake_project(tmp_path):
    """find_package(argext) through argext_DIR: shared and static targets; a
    version of another minor is refused."""
    if CC is None and POSIX:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    major, minor, _ = argext.__version__.split(".")
    (tmp_path / "CMakeLists.txt").write_text(CONSUMER.format(version=f"{major}.{minor}"))
    (tmp_path / "app.c").write_text(PROGRAM)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    cmake_dir = f"-Dargext_DIR={argext_says('--cmakedir')[0]}"
    configured = run([CMAKE, "-S", tmp_path, "-B", tmp_path / "b", cmake_dir, *generator],
                     env=clean_env())
    assert f"found argext {argext.__version__}" in configured
    run([CMAKE, "--build", tmp_path / "b", "--config", "Release"])
    for name in ("app_shared", "app_static"):
        (exe,) = [p for p in (tmp_path / "b").rglob(name + (".exe" if not POSIX else ""))
                  if p.is_file()]
        if not POSIX and name == "app_shared":
            continue  # a Windows program finds argext.dll on PATH or beside it, by no rpath
        assert run([exe], env=clean_env()).split() == expected(), name
    (tmp_path / "CMakeLists.txt").write_text(CONSUMER.format(version=f"{int(major) + 1}.0"))
    p = subprocess.run([CMAKE, "-S", tmp_path, "-B", tmp_path / "c", cmake_dir, *generator],
                       capture_output=True, text=True)
    assert p.returncode != 0 and "not compatible" in p.stderr, p.stderr
