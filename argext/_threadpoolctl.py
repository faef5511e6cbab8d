"""threadpoolctl support: a controller for argext's thread pool, registered
with threadpoolctl when threadpoolctl is imported, before or after argext,
so that threadpool_limits(n) limits argext and threadpool_info() lists it.
argext never imports threadpoolctl itself."""

import sys


def register(threadpoolctl):
    """Registers the argext controller with an imported threadpoolctl module
    (3.2 and later: older ones have no register())."""
    if not hasattr(threadpoolctl, "register"):
        return
    import ctypes  # threadpoolctl has imported it already

    class ArgextController(threadpoolctl.LibController):
        """argext's pool, found in its extension module (_core.*) or in libargext."""

        user_api = "argext"
        internal_api = "argext"
        filename_prefixes = ("_core.", "libargext", "argext")
        check_symbols = ("argext_get_num_threads", "argext_set_num_threads")

        def get_num_threads(self):
            return self.dynlib.argext_get_num_threads()

        def set_num_threads(self, num_threads):
            return self.dynlib.argext_set_num_threads(ctypes.c_int(num_threads))

        def get_version(self):
            version = self.dynlib.argext_version
            version.restype = ctypes.c_char_p
            return version().decode()

    threadpoolctl.register(ArgextController)


class _RegisterOnImport:
    """A one-shot meta path finder: when threadpoolctl is imported, its usual
    loader runs and then the controller is registered."""

    def find_spec(self, name, path=None, target=None):
        if name != "threadpoolctl":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:  # another thread's import took it first
            return None
        import importlib.util

        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _RegisteringLoader(spec.loader)
        return spec


class _RegisteringLoader:
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        register(module)


def install():
    """Registers now if threadpoolctl is imported, else when it is."""
    module = sys.modules.get("threadpoolctl")
    if module is not None:
        register(module)
    else:
        sys.meta_path.insert(0, _RegisterOnImport())
