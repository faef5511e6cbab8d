"""argext and the libraries users would pick instead, each doing the same work.

A contender offers the operators it has as methods named after the case's op
(cases.py): `method(case, x)` returns a call without arguments that does the
work once and returns its result. It raises `Blank` when it lacks the dtype,
the layout or an option of the case: its cell stays empty, with the reason.
Only argext and NumPy are imported here unconditionally; each peer's module is
imported when its contender is made, so a missing peer costs nothing.
"""

import contextlib
import math
import os

import numpy as np

import argext

from .cases import numpy_dtype


class Blank(Exception):
    """The contender cannot do this case; the message says why."""


def _check_native(x):
    if not x.dtype.isnative:
        raise Blank("native byte order only")


def _forward(x):
    """The forward-strided array behind x and the axes x reverses: peers that
    cannot read a negative stride reverse it themselves (a flip)."""
    flips = tuple(a for a in range(x.ndim) if x.strides[a] < 0)
    return (np.flip(x, flips) if flips else x), flips


def _fold(shape, axes):
    """(permutation, 2-D shape) that brings `axes` last and flattens them:
    the multi-axis reduction done by a library that reduces one axis."""
    kept = [a for a in range(len(shape)) if a not in axes]
    return kept + list(axes), (math.prod(shape[a] for a in kept), -1)


def _flip_for_last(case, x, flips):
    """Axes to flip for the last occurrence (select_last_index) on top of the
    view's own reversals; the index found in the flipped data is mirrored back."""
    if not case.select_last_index:
        return flips
    return tuple(sorted(set(flips) ^ {case.axis % x.ndim}))


def set_thread_environment(threads):
    """Thread counts the peers read from the environment when first imported:
    OpenMP (PyTorch, NumKong), Numba (numbagg) and XLA (JAX, which also needs
    the affinity mask the bench sets to stay on its cores). OpenMP's idle
    threads sleep (passive) instead of spinning: after a PyTorch run they spun
    on the bench's CPUs and took them from the next contender, as ONNX
    Runtime's do unless told not to (Zen 4, rows of 16 at 1 GiB, argext on
    one thread with PyTorch imported: 54-56 ms spinning, 41-47 ms passive,
    41-42 ms without PyTorch)."""
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ["NUMBA_NUM_THREADS"] = str(threads)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    kept = [f for f in os.environ.get("XLA_FLAGS", "").split()
            if not f.lstrip("-").startswith(("xla_cpu_multi_thread_eigen", "intra_op_parallelism_threads"))]
    eigen = "true" if threads > 1 else "false"
    os.environ["XLA_FLAGS"] = " ".join(
        kept + [f"--xla_cpu_multi_thread_eigen={eigen}", f"intra_op_parallelism_threads={threads}"])


class Contender:
    name = ""
    module = ""  # what must be importable (the note names it when it is not)
    needs: tuple[str, ...] = ()  # further modules it needs
    threads = 1  # threads it runs on
    checked = True  # its result is checked against NumPy's (False: a yardstick, timed only)

    def applies(self, case):
        """Whether it has a row in the case at all (not whether it can do it)."""
        return True

    def to_numpy(self, result):
        return np.asarray(result)


class Argext(Contender):
    name = module = "argext"

    def __init__(self, threads):
        argext.set_num_threads(threads)
        self.threads = threads

    def argmax(self, case, x):
        return lambda: argext.argmax(x, axis=case.axis, keepdims=0, select_last_index=case.select_last_index)

    def hardmax(self, case, x):
        return lambda: argext.hardmax(x, axis=case.axis)

    def nanargmax(self, case, x):
        return lambda: argext.nanargmax(x, axis=case.axis)

    def reduce_argmax(self, case, x):
        return lambda: argext.reduce_argmax(x, list(case.axis)).reshape(-1)

    def topk(self, case, x):
        return lambda: argext.topk(x, case.k, case.axis)


class ArgextArgmax(Argext):
    """argext's argmax of a TopK case's input: the GB/s TopK is measured against."""
    name = "argext-argmax"
    checked = False

    def applies(self, case):
        return case.op == "topk"

    def topk(self, case, x):
        return lambda: argext.argmax(x, axis=case.axis, keepdims=0)


class ArgextNative(Argext):
    """argext on the native-order copy of a byte-swapped input."""
    name = "argext-native"

    def applies(self, case):
        return case.swapped

    def argmax(self, case, x):
        return super().argmax(case, x.astype(x.dtype.newbyteorder("=")))


class NumPy(Contender):
    name = module = "numpy"

    def __init__(self, threads):
        pass

    def argmax(self, case, x):
        axis = case.axis
        if case.select_last_index:
            return lambda: x.shape[axis] - 1 - np.argmax(np.flip(x, axis), axis=axis)
        return lambda: np.argmax(x, axis=axis)

    def hardmax(self, case, x):
        axis = case.axis

        def run():
            y = np.zeros_like(x)
            np.put_along_axis(y, np.expand_dims(np.argmax(x, axis=axis), axis), 1, axis=axis)
            return y
        return run

    def nanargmax(self, case, x):
        return lambda: np.nanargmax(x, axis=case.axis)

    def reduce_argmax(self, case, x):
        perm, shape = _fold(x.shape, case.axis)
        return lambda: np.argmax(np.transpose(x, perm).reshape(shape), axis=1)

    def topk(self, case, x):
        """argpartition for the k largest, then a sort of those k."""
        axis, k = case.axis, case.k

        def run():
            kept = np.take(np.argpartition(x, -k, axis=axis), range(x.shape[axis] - k, x.shape[axis]),
                           axis=axis)
            order = np.flip(np.argsort(np.take_along_axis(x, kept, axis), axis=axis, kind="stable"), axis)
            indices = np.take_along_axis(kept, order, axis)
            return np.take_along_axis(x, indices, axis), indices
        return run


class OnnxRuntime(Contender):
    name = module = "onnxruntime"
    needs = ("onnx",)

    def __init__(self, threads):
        import onnxruntime

        self.ort = onnxruntime
        self.threads = threads

    def _session(self, x, node, out_elem, initializers=(), outputs=1):
        """A session of one node on x (and the initializers); its first `outputs` outputs."""
        from onnx import TensorProto, helper
        from onnx.helper import np_dtype_to_tensor_dtype

        _check_native(x)
        try:
            elem = np_dtype_to_tensor_dtype(x.dtype)
        except (KeyError, ValueError, TypeError):
            raise Blank(f"no ONNX type for {x.dtype}") from None
        graph = helper.make_graph([node], "bench", [helper.make_tensor_value_info("x", elem, x.shape)],
                                  [helper.make_tensor_value_info("y", out_elem or elem, None),
                                   helper.make_tensor_value_info("i", TensorProto.INT64, None)][:outputs],
                                  list(initializers))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        options = self.ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # Its pool's threads spin after a run, taking the core from the next contender.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = self.ort.InferenceSession(model.SerializeToString(), options,
                                                providers=["CPUExecutionProvider"])
        except Exception as e:
            if "NOT_IMPLEMENTED" in str(e):
                raise Blank(f"no {node.op_type}-13 kernel for {x.dtype}") from None
            if "Type Error" in str(e):  # the operator's version at opset 13 lacks the dtype (TopK-11: bfloat16)
                raise Blank(f"{node.op_type} at opset 13 takes no {x.dtype}") from None
            raise
        if outputs > 1:
            return lambda: tuple(session.run(None, {"x": x}))
        return lambda: session.run(None, {"x": x})[0]

    def argmax(self, case, x):
        from onnx import TensorProto, helper

        node = helper.make_node("ArgMax", ["x"], ["y"], axis=case.axis, keepdims=0,
                                select_last_index=case.select_last_index)
        return self._session(x, node, TensorProto.INT64)

    def hardmax(self, case, x):
        from onnx import helper

        return self._session(x, helper.make_node("Hardmax", ["x"], ["y"], axis=case.axis), None)

    def topk(self, case, x):
        from onnx import TensorProto, helper

        k = helper.make_tensor("k", TensorProto.INT64, [1], [case.k])
        node = helper.make_node("TopK", ["x", "k"], ["y", "i"], axis=case.axis)
        return self._session(x, node, None, [k], outputs=2)


class Torch(Contender):
    name = module = "torch"

    def __init__(self, threads):
        import torch

        torch.set_num_threads(threads)
        self.torch = torch
        self.threads = threads

    def _tensor(self, x):
        _check_native(x)
        base, flips = _forward(x)
        try:
            if x.dtype == numpy_dtype("bfloat16"):
                return self.torch.from_numpy(base.view(np.int16)).view(self.torch.bfloat16), flips
            return self.torch.from_numpy(base), flips
        except TypeError:
            raise Blank(f"no tensor of {x.dtype} from NumPy") from None

    def _call(self, x, fn):
        """fn(tensor) as a call; a dtype without a kernel is a Blank."""
        t, _ = self._tensor(x)
        try:
            fn(t)
        except (NotImplementedError, RuntimeError):
            raise Blank(f"no kernel for {x.dtype}") from None
        return lambda: fn(t)

    def argmax(self, case, x):
        torch, axis = self.torch, case.axis
        flips = _flip_for_last(case, x, _forward(x)[1])
        n = x.shape[axis]

        def run(t):
            r = torch.argmax(torch.flip(t, flips) if flips else t, dim=axis)
            return n - 1 - r if case.select_last_index else r
        return self._call(x, run)

    def hardmax(self, case, x):
        torch, axis = self.torch, case.axis
        return self._call(x, lambda t: torch.zeros_like(t).scatter_(
            axis, torch.argmax(t, dim=axis, keepdim=True), 1))

    def reduce_argmax(self, case, x):
        perm, shape = _fold(x.shape, case.axis)
        return self._call(x, lambda t: t.permute(perm).reshape(shape).argmax(1))

    def topk(self, case, x):
        return self._call(x, lambda t: tuple(self.torch.topk(t, case.k, dim=case.axis)))

    def to_numpy(self, result):
        if result.dtype.is_floating_point:
            result = result.float()
        return result.numpy()


class Jax(Contender):
    name = module = "jax"

    def __init__(self, threads):
        import jax

        self.jax = jax
        self.threads = threads

    def _jit(self, x, fn, flips=None):
        """fn under jax.jit on the input put on the device once (outside the
        timing; compiled by the first call, the check); a call blocks until
        the result is ready. JAX runs as it does by default, but 64-bit dtypes
        need jax_enable_x64: those put and run inside it (which would slow the
        others: int64 indices)."""
        import jax.numpy as jnp

        _check_native(x)
        base, own = _forward(x)
        flips = own if flips is None else flips
        x64 = getattr(self.jax, "enable_x64", None) if x.dtype.itemsize == 8 else None
        if x.dtype.itemsize == 8 and x64 is None:
            raise Blank("64-bit dtypes need jax.enable_x64 (JAX 0.5+)")
        with x64(True) if x64 is not None else contextlib.nullcontext():
            a = self.jax.device_put(base)
        f = self.jax.jit(lambda a: fn(jnp.flip(a, flips) if flips else a))
        ready = self.jax.block_until_ready  # a result, or a tuple of them
        if x64 is None:
            return lambda: ready(f(a))

        def run():
            with x64(True):
                return ready(f(a))
        return run

    def argmax(self, case, x):
        import jax.numpy as jnp

        axis, n = case.axis, x.shape[case.axis]
        flips = _flip_for_last(case, x, _forward(x)[1])
        if case.select_last_index:
            return self._jit(x, lambda a: n - 1 - jnp.argmax(a, axis=axis), flips)
        return self._jit(x, lambda a: jnp.argmax(a, axis=axis), flips)

    def hardmax(self, case, x):
        import jax.numpy as jnp

        axis = case.axis
        return self._jit(x, lambda a: self.jax.nn.one_hot(jnp.argmax(a, axis=axis), a.shape[axis],
                                                          dtype=a.dtype, axis=axis))

    def nanargmax(self, case, x):
        import jax.numpy as jnp

        return self._jit(x, lambda a: jnp.nanargmax(a, axis=case.axis))

    def reduce_argmax(self, case, x):
        perm, shape = _fold(x.shape, case.axis)
        return self._jit(x, lambda a: a.transpose(perm).reshape(shape).argmax(1))

    def topk(self, case, x):
        import jax.numpy as jnp

        axis = case.axis
        return self._jit(x, lambda a: tuple(jnp.moveaxis(r, -1, axis) for r in
                                            self.jax.lax.top_k(jnp.moveaxis(a, axis, -1), case.k)))

    def to_numpy(self, result):
        if result.dtype == numpy_dtype("bfloat16"):
            result = result.astype(np.float32)
        return np.asarray(result)


class NumKong(Contender):
    """NumKong's argmax skips NaN (None when all are NaN): nanargmax's
    contract, and argmax's on the NaN-free inputs of the argmax cases."""
    name = module = "numkong"

    def __init__(self, threads):
        import numkong

        self.nk = numkong

    def argmax(self, case, x):
        if case.select_last_index:
            raise Blank("no last-occurrence option")
        _check_native(x)
        try:
            self.nk.argmax(x, axis=case.axis)
        except (TypeError, ValueError) as e:
            raise Blank(str(e).splitlines()[0][:50]) from None
        return lambda: self.nk.argmax(x, axis=case.axis)

    nanargmax = argmax


class _NaNSkipping(Contender):
    """A NaN-skipping peer with kernels for a few dtypes."""
    dtypes = ("float32", "float64", "int32", "int64")

    def __init__(self, threads):
        self.function = self.load()

    def nanargmax(self, case, x):
        _check_native(x)
        if x.dtype.name not in self.dtypes:
            raise Blank(f"no kernel for {x.dtype}")
        return lambda: self.function(x, axis=case.axis)


class Bottleneck(_NaNSkipping):
    name = module = "bottleneck"

    def load(self):
        import bottleneck

        return bottleneck.nanargmax


class Numbagg(_NaNSkipping):
    name = module = "numbagg"

    def load(self):
        import numbagg

        return numbagg.nanargmax


# In table order.
ALL = (Argext, ArgextArgmax, ArgextNative, NumPy, OnnxRuntime, Torch, Jax, NumKong, Bottleneck, Numbagg)

