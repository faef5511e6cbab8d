"""Where users' data arrives: Arrow arrays and chunked arrays, pandas columns,
masked arrays, and tensors through DLPack (torch, JAX, array-api-strict), each
against that library's own answer (pyarrow.compute, pandas, torch, JAX) or
NumPy's; and checks that nothing is copied (tracemalloc, DLPack deleters)."""

import importlib
import sys
import tracemalloc

import numpy as np
import pytest

import argext
import argext.numpy as anp



def _optional(name):
    """The module, or None: the tests needing it skip, saying why, and the others run (a
    module-level importorskip would skip every test here, as on arm64, which has no torch)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


pa, pd, torch, jax = (_optional(name) for name in ("pyarrow", "pandas", "torch", "jax"))
pc = pa and _optional("pyarrow.compute")
needs_arrow = pytest.mark.skipif(pa is None, reason="pyarrow is not installed (argext's interop extra)")
needs_pandas = pytest.mark.skipif(pd is None, reason="pandas is not installed (argext's interop extra)")
needs_torch = pytest.mark.skipif(torch is None, reason=(
    "torch is not installed: PyPI's Linux torch is the CUDA build (on x86-64 and arm64 alike), "
    "so no extra pulls it in; .ci/run installs the CPU wheel the machine keeps"))
needs_jax = pytest.mark.skipif(jax is None, reason="jax is not installed (argext's interop extra)")

# Every operator, on a 1-D column; the ones whose contract is skipping NaN last.
RANKING = {
    "argmax": lambda x: argext.argmax(x, 0, 0),
    "argmin": lambda x: argext.argmin(x, 0, 0, select_last_index=1),
    "reduce_argmax": lambda x: argext.reduce_argmax(x, [0]),
    "reduce_argmin": lambda x: argext.reduce_argmin(x, 0, axis_direction="decreasing"),
    "hardmax": lambda x: argext.hardmax(x),
    "numpy.argmax": lambda x: anp.argmax(x),
    "numpy.argmin": lambda x: anp.argmin(x),
}
SKIPPING = {
    "nanargmax": argext.nanargmax, "nanargmin": argext.nanargmin,
    "numpy.nanargmax": anp.nanargmax, "numpy.nanargmin": anp.nanargmin,
}


def peak_bytes(call):
    """The largest NumPy/Python allocation while call() runs, and its result."""
    tracemalloc.start()
    try:
        result = call()
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


# --- Arrow --------------------------------------------------------------------------------

@needs_arrow
@pytest.mark.parametrize("name", RANKING)
@pytest.mark.parametrize("typ", [pa.float32(), pa.int32(), pa.uint64()] if pa else [], ids=str)
def test_arrow_nulls_refused(name, typ):
    x = pa.array([1, None, 3], typ)
    with pytest.raises(TypeError, match=r"1 missing value .*fill_null"):
        RANKING[name](x)
    chunked = pa.chunked_array([[5, 1], [None, 3]], typ)
    with pytest.raises(TypeError, match=r"missing value"):
        RANKING[name](chunked)


@needs_arrow
@needs_pandas  # the reference: pandas' skipna
@pytest.mark.parametrize("name", SKIPPING)
def test_arrow_nulls_skipped_by_nan_functions(name):
    is_min = name.endswith("min")
    rng = np.random.default_rng(5)
    for typ in (pa.float32(), pa.int64(), pa.int8()):
        values = rng.integers(-50, 50, 40).astype(object)
        values[rng.random(40) < 0.3] = None
        if typ == pa.float32():
            values[3] = float("nan")
        column = pa.chunked_array([values[:7], values[7:7], values[7:25], values[25:]], typ)
        # pandas skips NA and NaN alike (skipna), counting over the whole column.
        series = column.to_pandas()
        want = series.argmin() if is_min else series.argmax()
        assert int(SKIPPING[name](column)) == want, (typ, values)
    extreme = np.iinfo(np.int32).min if not is_min else np.iinfo(np.int32).max
    ties = pa.chunked_array([[None, extreme], [None, extreme]], pa.int32())  # nulls filled with the loser
    assert int(SKIPPING[name](ties)) == 1
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        SKIPPING[name](pa.chunked_array([[None], [None, None]], pa.float64()))


@needs_arrow
@pytest.mark.parametrize("typ", [pa.float16(), pa.float32(), pa.float64(), pa.int8(), pa.int64(),
                                 pa.uint16(), pa.uint64()] if pa else [], ids=str)
def test_arrow_chunked_merged_exactly(typ):
    rng = np.random.default_rng(7)
    parts = [rng.integers(0, 6, n) for n in (5, 0, 17, 1, 40)]  # few values: many ties
    if typ in (pa.float16(), pa.float32(), pa.float64()):
        parts[2] = parts[2].astype(np.float64)
        parts[2][[4, 9]] = np.nan
        parts[4] = np.where(parts[4] == 0, -0.0, parts[4]).astype(np.float64)
    column = pa.chunked_array([pa.array(p).cast(typ) for p in parts])
    whole = column.to_numpy()  # the reference's own concatenation
    for last in (0, 1):
        for fn, ref in ((argext.argmax, np.argmax), (argext.argmin, np.argmin)):
            want = ref(whole[::-1]) if last else ref(whole)
            want = len(whole) - 1 - want if last else want
            assert fn(column, 0, 0, last).tolist() == want, (fn, last)
    assert argext.reduce_argmin(column, [0], axis_direction="decreasing").tolist() == [
        len(whole) - 1 - np.argmin(whole[::-1])]
    assert int(anp.argmax(column)) == np.argmax(whole)
    assert int(argext.nanargmin(column)) == np.nanargmin(whole)
    if not np.isnan(whole.astype(np.float64)).any():
        # pyarrow.compute: the first index of the column's max.
        assert argext.argmax(column, 0, 0).tolist() == pc.index(column, pc.max(column)).as_py()
    if typ in (pa.float32(), pa.float64()):
        got = argext.hardmax(column)
        assert got.dtype == whole.dtype and got.tolist() == np.eye(len(whole))[np.argmax(whole)].tolist()


@needs_arrow
def test_arrow_read_in_place_never_concatenated():
    n = 1 << 21  # 8 MiB of float32 in four chunks
    column = pa.chunked_array([pa.array(np.arange(i, n // 4 + i, dtype=np.float32))
                               for i in range(4)])
    pool = pa.default_memory_pool()
    before = pool.bytes_allocated()
    peak, got = peak_bytes(lambda: argext.argmax(column, 0, 0))
    assert got.tolist() == n - 1  # the last chunk holds the largest values
    assert peak < n * 4 // 100 and pool.bytes_allocated() == before  # no copy by NumPy or Arrow
    one = pa.array(np.ones(n, np.float64))
    peak, _ = peak_bytes(lambda: anp.argmin(one))
    assert peak < n * 8 // 100


@needs_arrow
@pytest.mark.parametrize("column, kind", [
    (pa.array(["b", "a", "c"]).dictionary_encode(), "dictionary"),
    (pa.array([3, 1, 2]).dictionary_encode(), "dictionary"),
    (pa.array(["b", "a"]), "string"),
    (pa.array([1, 2], pa.timestamp("s")), "timestamp"),
    (pa.array([1, 2], pa.decimal128(5, 1)), "decimal"),
] if pa else [], ids=["dict-str", "dict-int", "string", "timestamp", "decimal"] if pa else None)
def test_arrow_non_numeric_refused(column, kind):
    for name, fn in {**RANKING, **SKIPPING}.items():
        with pytest.raises(TypeError, match=rf"{kind}.* not numeric"):
            fn(column)


@needs_arrow
def test_arrow_bool_as_numpy_takes_it():
    x = pa.chunked_array([[False, False], [True, True]])
    assert int(anp.argmax(x)) == 2 and int(anp.argmin(x)) == 0
    with pytest.raises(argext.SpecTypeError, match="bool"):
        argext.argmax(x, 0)  # no ONNX ArgMax version has bool


# --- pandas ---------------------------------------------------------------------------------

@needs_pandas
@needs_arrow  # the [pyarrow] dtypes
@pytest.mark.parametrize("dtype", ["Float32", "Int64", "UInt8", "boolean", "float64[pyarrow]",
                                   "int32[pyarrow]"])
def test_pandas_na_refused_or_skipped(dtype):
    values = [True, None, False] if dtype == "boolean" else [1, None, 3]
    s = pd.Series(values, dtype=dtype)
    for name, fn in RANKING.items():
        if dtype == "boolean" and not name.startswith("numpy"):
            continue  # bool is outside the ONNX operators' spec (a SpecTypeError)
        with pytest.raises(TypeError, match=r"missing value.*fillna"):
            fn(s)
    for name, fn in SKIPPING.items():
        want = s.argmin() if name.endswith("min") else s.argmax()  # pandas skips NA
        if dtype != "boolean" or name.startswith("numpy"):
            assert int(fn(s)) == want, name


@needs_pandas
@needs_arrow  # the [pyarrow] dtypes
@pytest.mark.parametrize("dtype", ["Float32", "Int16", "float32[pyarrow]", "uint64[pyarrow]",
                                   "float64"])
def test_pandas_without_na_as_pandas(dtype):
    rng = np.random.default_rng(3)
    s = pd.Series(rng.integers(0, 9, 300), dtype=dtype)
    assert argext.argmax(s, 0, 0).tolist() == s.argmax()
    assert argext.argmin(s, 0, 0).tolist() == s.argmin()
    assert int(anp.argmax(s)) == s.argmax() and int(anp.nanargmin(s)) == s.argmin()
    assert argext.reduce_argmax(s.array, [0]).tolist() == [s.argmax()]


@needs_pandas
def test_pandas_read_in_place():
    n = 1 << 20
    s = pd.Series(np.arange(n, dtype=np.float32), dtype="Float32")
    peak, got = peak_bytes(lambda: argext.argmax(s, 0, 0))
    # Its values are not copied (4 bytes each); its NA mask is read (1 byte each).
    assert got.tolist() == n - 1 and peak < n * 1.2
    s = pd.Series(np.arange(n, dtype=np.float64))
    peak, got = peak_bytes(lambda: argext.argmax(s, 0, 0))
    assert got.tolist() == n - 1 and peak < n * 8 // 100


@needs_pandas
@pytest.mark.parametrize("column, kind", [
    (pd.Series([3, 1, 2], dtype="category"), "categorical"),
    (pd.Series(pd.to_datetime(["2020-01-02", "2020-01-01"])), "datetime64"),
    (pd.Series(["b", "a"], dtype="string"), "string|object"),
] if pd else [])
def test_pandas_non_numeric_refused(column, kind):
    for name, fn in {**RANKING, **SKIPPING}.items():
        with pytest.raises(TypeError, match=kind):
            fn(column)


@needs_pandas
def test_pandas_dataframe():
    df = pd.DataFrame({"a": [1.0, 5.0, 2.0], "b": [7.0, 0.0, 9.0]})
    assert argext.argmax(df, 0, 0).tolist() == df.to_numpy().argmax(0).tolist()
    with pytest.raises(TypeError, match=r"\['c'\].*missing value"):
        argext.argmax(df.assign(c=pd.array([1, None, 2], dtype="Int64")), 0)


# --- masked arrays ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", [*RANKING, *SKIPPING])
def test_masked_refused(name):
    m = np.ma.masked_invalid([1.0, np.nan, 3.0])
    with pytest.raises(TypeError, match=r"MaskedArray.*filled"):
        {**RANKING, **SKIPPING}[name](m)


# --- DLPack ------------------------------------------------------------------------------------

class Producer:
    """Only __dlpack__ and __dlpack_device__: an array of no known library.
    Counts the capsules given out (a consumer's first try with max_version, which
    NumPy before 1.26 refuses with a TypeError, is not one), and whether each was
    released (its deleter)."""

    def __init__(self, array, device=(1, 0)):
        self.array, self.device, self.taken = array, device, 0

    def __dlpack__(self, **kwargs):
        capsule = self.array.__dlpack__(**kwargs)
        self.taken += 1
        return capsule

    def __dlpack_device__(self):
        return self.device


def test_dlpack_only_object():
    x = np.random.default_rng(1).standard_normal((30, 7)).astype(np.float32)
    p = Producer(x)
    references = sys.getrefcount(x)
    assert argext.argmax(p, 1, 0).tolist() == x.argmax(1).tolist()
    assert argext.hardmax(p).tolist() == np.eye(7)[x.argmax(1)].tolist()
    assert int(anp.argmin(p)) == x.argmin()
    assert p.taken == 3 and sys.getrefcount(x) == references  # every capsule released


def test_dlpack_non_cpu_refused():
    with pytest.raises(ValueError, match=r"DLPack device \(2, 0\).*CPU"):
        argext.argmax(Producer(np.ones(3), device=(2, 0)), 0)


@needs_torch
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16, torch.int64,
                                   torch.uint8, torch.int16] if torch else [], ids=str)
def test_torch_in_torch_out(dtype):
    g = torch.Generator().manual_seed(2)
    t = torch.randint(-20, 20, (16, 33), generator=g).to(dtype)
    if dtype == torch.uint8:
        t = torch.randint(0, 40, (16, 33), generator=g).to(dtype)
    got = argext.argmax(t, 1, 0)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.int64
    assert torch.equal(got, torch.argmax(t, 1))  # torch: the first maximal value
    assert torch.equal(argext.argmin(t, 0), torch.argmin(t, 0, keepdim=True))
    flat = anp.argmax(t)
    assert isinstance(flat, torch.Tensor) and flat.shape == () and int(flat) == int(torch.argmax(t))
    assert torch.equal(anp.argmin(t.T, axis=1), torch.argmin(t.T, 1))  # a strided view
    if dtype.is_floating_point:
        h = argext.hardmax(t)
        assert h.dtype == dtype and torch.equal(
            h, torch.nn.functional.one_hot(torch.argmax(t, -1), 33).to(dtype))


@needs_torch
def test_torch_bfloat16_nan_without_ml_dtypes():
    t = torch.tensor([[1.0, float("nan"), 3.0, float("nan")], [-0.0, 0.0, -1.0, 0.0]],
                     dtype=torch.bfloat16)
    assert argext.argmax(t, 1, 0).tolist() == [1, 0]
    assert argext.argmax(t, 1, 0, 1).tolist() == [3, 3]
    assert anp.nanargmax(t, axis=1).tolist() == [2, 0]
    code = ("import sys; sys.modules['ml_dtypes'] = None\nimport torch, argext\n"
            "t = torch.tensor([1.0, 5.0, 2.0], dtype=torch.bfloat16)\n"
            "h = argext.hardmax(t)\nprint(argext.argmax(t, 0, 0).item(), h.dtype, h.tolist())")
    from test_front import run_python
    assert run_python(code).split() == ["1", "torch.bfloat16", "[0.0,", "1.0,", "0.0]"]


@needs_torch
def test_torch_bool_and_requires_grad():
    b = torch.tensor([[False, True, True], [False, False, False]])
    assert anp.argmax(b, axis=1).tolist() == [1, 0]
    assert int(anp.argmin(b)) == 0
    with pytest.raises(argext.SpecTypeError, match="bool"):
        argext.argmax(b, 1)  # ONNX ArgMax has no bool
    w = torch.tensor([[0.5, 2.0], [3.0, -1.0]], requires_grad=True)
    assert argext.argmax(w, 0, 0).tolist() == [1, 0]
    assert argext.hardmax(w).tolist() == [[0.0, 1.0], [1.0, 0.0]]


@needs_torch
def test_torch_dtypes_numpy_lacks_are_refused_by_name():
    """float8 and complex tensors: a SpecTypeError naming torch's dtype and DLPack's, the
    supported dtypes and the conversion, as NumPy's own dtypes are refused; the tensor's
    DLPack export is released (the tensor stays usable)."""
    t = torch.tensor([[1.0, 3.0], [2.0, -1.0]])
    for dtype, name in [(torch.float8_e4m3fn, "Float8_e4m3fn"), (torch.complex64, "Complex")]:
        x = t.to(dtype)
        for call in (lambda: argext.argmax(x, 1), lambda: argext.topk(x, 1)):
            with pytest.raises(argext.SpecTypeError, match=(
                    rf"has dtype {dtype} \(DLPack code \d+, {name}, \d+ bits\), which it does not "
                    r"support \(supported: float16, .*\); convert it first")):
                call()
        assert torch.equal(x.real if x.is_complex() else x.to(torch.float32), t)


@needs_torch
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16, torch.int16]
                         if torch else [], ids=str)
def test_torch_numpy_top_k(dtype):
    """argext.numpy.top_k of a tensor: answered in torch (bfloat16 too), NaN last as
    numpy.top_k puts it; against the stable-sort reference and torch.topk."""
    from reference import topk_reference
    g = torch.Generator().manual_seed(5)
    t = torch.randint(-6, 6, (5, 13), generator=g).to(dtype)  # ties
    if dtype.is_floating_point:
        t[1, 3] = t[1, 7] = t[4, 0] = float("nan")
        t[2, 5] = -0.0
    x = t.float().numpy() if dtype.is_floating_point else t.numpy()  # bfloat16 widens exactly
    for axis in (0, 1, -1):
        for k in (0, 1, 3, t.shape[axis]):
            for mode in ("largest", "smallest"):
                for ordered in (True, False):
                    values, indices = anp.top_k(t, k, axis=axis, mode=mode, sorted=ordered)
                    assert isinstance(values, torch.Tensor) and values.dtype == dtype
                    assert isinstance(indices, torch.Tensor) and indices.dtype == torch.int64
                    want = topk_reference(x, k, axis, mode == "largest", ordered, nan_last=True)
                    np.testing.assert_array_equal(indices.numpy(), want[1])
                    np.testing.assert_array_equal(values.float().numpy() if dtype.is_floating_point
                                                  else values.numpy(), want[0])
    distinct = torch.randperm(65, generator=g).to(dtype).reshape(5, 13)
    for largest in (True, False):
        got = anp.top_k(distinct, 4, mode="largest" if largest else "smallest")
        want = torch.topk(distinct, 4, largest=largest)
        assert torch.equal(got[0], want.values) and torch.equal(got[1], want.indices)


@needs_jax
def test_jax_numpy_top_k_bfloat16():
    import jax.numpy as jnp
    from reference import topk_reference
    x = np.array([[1.5, np.nan, 3.0, 3.0, -2.0], [0.0, -0.0, np.nan, 7.0, 1.0]], np.float32)
    values, indices = anp.top_k(jnp.asarray(x, jnp.bfloat16), 3, mode="smallest")
    assert isinstance(values, jax.Array) and values.dtype == jnp.bfloat16
    want = topk_reference(x, 3, -1, 0, 1, nan_last=True)
    np.testing.assert_array_equal(np.asarray(indices), want[1])
    np.testing.assert_array_equal(np.asarray(values, np.float32), want[0])


@needs_torch
def test_torch_read_in_place():
    t = torch.arange(1 << 21, dtype=torch.float32)
    peak, got = peak_bytes(lambda: argext.argmax(t, 0))
    assert got.item() == (1 << 21) - 1 and peak < (1 << 23) // 100
    h = argext.hardmax(t.reshape(1024, 2048))
    # The result is the NumPy array argext wrote, handed to torch through DLPack.
    assert np.from_dlpack(h).__array_interface__["data"][0] == h.data_ptr()


@needs_jax
def test_jax_in_jax_out():
    import jax.numpy as jnp
    x = jnp.asarray(np.random.default_rng(4).standard_normal((9, 13)).astype(np.float32))
    got = argext.argmax(x, 1, 0)
    assert isinstance(got, jax.Array) and (np.asarray(got) == np.asarray(jnp.argmax(x, 1))).all()
    flat = anp.argmin(x)
    assert isinstance(flat, jax.Array) and int(flat) == int(jnp.argmin(x))
    h = argext.hardmax(x.astype(jnp.bfloat16))
    assert h.dtype == jnp.bfloat16 and (np.asarray(h, np.float32) ==
                                        np.asarray(jax.nn.one_hot(jnp.argmax(x, -1), 13))).all()


def test_array_api_strict():
    xp = pytest.importorskip("array_api_strict")
    x = xp.asarray(np.array([[3, 9, 1], [7, 2, 8]], np.int16))
    got = anp.argmax(x, axis=1)
    assert type(got) is type(x) and np.asarray(got).tolist() == np.asarray(xp.argmax(x, axis=1)).tolist()
    got = anp.argmin(x, axis=0, keepdims=True)
    assert np.asarray(got).tolist() == np.asarray(xp.argmin(x, axis=0, keepdims=True)).tolist()
