# Two extension modules on argext's capsule: capsule_module.c (C) and cython_module.pyx
# (cimport argext.capi). Nothing is linked; import_argext() finds the installed argext.
import argext
from Cython.Build import cythonize
from setuptools import Extension, setup

include = [argext.get_include()]
setup(ext_modules=[
    Extension("capsule_module", ["capsule_module.c"], include_dirs=include),
    *cythonize([Extension("cython_module", ["cython_module.pyx"], include_dirs=include)]),
])
