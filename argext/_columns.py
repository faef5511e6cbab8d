"""Columns from Arrow and pandas as arrays argext reads in place.

Imported by the compiled front only when such an object is passed; pyarrow
and pandas are found in sys.modules (an object of theirs exists, so they are
imported), never imported here.

- A missing value (an Arrow null, a pandas NA) is never ranked: every operator
  refuses it with a TypeError naming the fill (fill_null, fillna); in
  nanargmax/nanargmin, whose contract is skipping, it is skipped as NaN is.
- Dictionary (categorical), string, temporal and other non-numeric columns
  are refused, never read as their codes or integers.
- An Arrow array without nulls is read in place (its values buffer); a
  chunked array chunk by chunk, in place, merged exactly: NaN and the
  extreme as for one array, ties to the first (or last) occurrence, the
  index counted over the whole column. Nothing is concatenated.
"""

import operator
import sys

import numpy as np

from argext import _errors


def _missing(context, what, count, fill):
    return TypeError(f"{context}: {what} holds {count} missing value{'s' * (count != 1)} "
                     f"(null/NA), which the operator does not rank; fill them first with "
                     f"{fill}, or use nanargmax/nanargmin, which skip them")


def _non_numeric(context, what, kind, hint=""):
    return TypeError(f"{context}: {what} is a {kind} column, not numeric; argext ranks numbers "
                     f"only and does not read codes{hint}")


def _arrow_type(context, what, typ):
    pa = sys.modules["pyarrow"]
    if pa.types.is_dictionary(typ):
        raise _non_numeric(context, what, f"dictionary-encoded ({typ})",
                           ": decode it (.dictionary_decode()) to rank its values")
    if not (pa.types.is_integer(typ) or pa.types.is_floating(typ) or pa.types.is_boolean(typ)):
        raise _non_numeric(context, what, str(typ))


def _arrow_chunks(context, what, data, fill, losing):
    """Each chunk of an Arrow Array or ChunkedArray as (values, valid): values
    in place (booleans unpacked); where nulls are skipped (losing: dtype ->
    the value a skipped element takes), a filled copy and the valid mask."""
    pa = sys.modules["pyarrow"]
    if isinstance(data, pa.ChunkedArray):
        chunks = data.chunks
    elif isinstance(data, pa.Array):
        chunks = [data]
    else:
        raise TypeError(f"{context}: {what} is a pyarrow {type(data).__name__}; pass a pyarrow "
                        f"Array or ChunkedArray (one column, e.g. table.column(name))")
    _arrow_type(context, what, data.type)
    if data.null_count and losing is None:
        raise _missing(context, what, data.null_count, fill)
    dtype = np.dtype(data.type.to_pandas_dtype())
    pieces = []
    for c in chunks:
        valid = None
        if c.null_count:
            valid = c.is_valid().to_numpy(zero_copy_only=False)
            c = c.fill_null(pa.scalar(losing(dtype), c.type))
        pieces.append((c.to_numpy(zero_copy_only=dtype.kind != "b"), valid))
    return pieces or [(np.empty(0, dtype), None)]


def _pandas_chunks(context, what, data, losing):
    pd = sys.modules["pandas"]
    fill = f"{what}.fillna(value)"
    if isinstance(data, pd.DataFrame):
        for name, column in data.items():
            _pandas_chunks(context, f"{what}[{name!r}]", column, None)
        return [(data.to_numpy(), None)]
    values = data.array if isinstance(data, (pd.Series, pd.Index)) else data
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        raise _non_numeric(context, what, "categorical",
                           f": rank its values with {what}.astype({dtype.categories.dtype}) "
                           f"or its codes with {what}.cat.codes")
    if isinstance(dtype, pd.ArrowDtype):
        return _arrow_chunks(context, what, values.__arrow_array__(), fill, losing)
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    # NumPy-backed (a NumPy dtype, or NumpyExtensionArray's): NumPy's own array.
    if isinstance(dtype, np.dtype) or numpy_dtype is None or type(dtype).__name__ in (
            "NumpyEADtype", "PandasDtype"):
        array = np.asarray(data)
        if array.dtype.kind not in "biuf":
            raise _non_numeric(context, what, str(dtype))
        return [(array, None)]
    if np.dtype(numpy_dtype).kind not in "biuf":
        raise _non_numeric(context, what, str(dtype))
    missing = np.asarray(values.isna())
    count = int(missing.sum())
    if count and losing is None:
        raise _missing(context, what, count, fill)
    if count:
        return [(values.to_numpy(dtype=numpy_dtype, na_value=losing(np.dtype(numpy_dtype))),
                 ~missing)]
    return [(values.to_numpy(dtype=numpy_dtype, copy=False), None)]  # in place


def chunks(context, what, data, losing=None):
    """data (pyarrow or pandas) as a list of (ndarray, valid mask or None):
    1-D, or 2-D for a DataFrame. losing: None to refuse missing values, else
    dtype -> the value a skipped one takes (NaN, or the losing extreme)."""
    if type(data).__module__.startswith("pyarrow"):
        return _arrow_chunks(context, what, data, f"{what}.fill_null(value)", losing)
    return _pandas_chunks(context, what, data, losing)


def _losing(is_min):
    """The value a skipped element takes: NaN (skipped by the NaN-skipping
    kernels), or for integers and bools the extreme that can only tie."""
    def losing(dtype):
        if dtype.kind == "f":
            return np.nan
        if dtype.kind == "b":
            return is_min
        info = np.iinfo(dtype)
        return info.max if is_min else info.min
    return losing


def _better(value, best, is_min, nan_wins, last):
    """Whether candidate `value` (later in the column) replaces `best`."""
    if nan_wins and value != value:
        return last or best == best  # NaN wins; among NaN, the first (or last)
    if nan_wins and best != best:
        return False
    if value == best:
        return last
    return value < best if is_min else value > best


def reduce(fn, context, what, data, *, is_min, nan_wins, last=False, skip=False, limit=None):
    """fn(chunk) -> the index of the whole 1-D column's extreme, merged over
    its chunks. fn is the argext call with every other argument bound; its
    result (shape, dtype, out) is kept and given the merged index. skip: a
    NaN-skipping function (nulls skipped, all-NaN chunks passed over)."""
    pieces = chunks(context, what, data, _losing(is_min) if skip else None)
    if len(pieces) == 1 and pieces[0][1] is None:
        return fn(pieces[0][0])
    total = sum(len(values) for values, _ in pieces)
    if limit is not None and total - 1 > limit[0]:
        raise _errors.index_overflow(context, total, limit[1])
    best = result = None
    offset = 0
    for values, valid in pieces:
        if len(values):
            try:
                result = fn(values)
            except ValueError as e:
                if not (skip and str(e) == _errors.ALL_NAN):
                    raise
            else:
                i = int(np.asarray(result).reshape(-1)[0])
                if valid is not None and not valid[i]:
                    # A filled integer won: every valid element ties with the fill.
                    i = int(np.flatnonzero(valid)[0]) if valid.any() else -1
                if i >= 0 and (best is None or _better(values[i], best[1], is_min, nan_wins, last)):
                    best = (offset + i, values[i])
        offset += len(values)
    if best is None:
        if skip and total:
            raise ValueError(_errors.ALL_NAN)
        return fn(pieces[0][0][:0])  # empty: the function's own error
    if isinstance(result, np.ndarray):
        result[...] = best[0]
        return result
    return type(result)(best[0])


def one_hot(hardmax, argmax, context, data, axis, opset, out):
    """Hardmax of a column: its chunks' first maximum (or first NaN) merged,
    then Hardmax of the one-hot it gives (the version's checks of axis, dtype
    and out made by hardmax itself, on data of the column's shape and dtype)."""
    pieces = chunks(context, "input", data)
    if len(pieces) == 1:
        return hardmax(pieces[0][0], axis, opset=opset, out=out)
    total = sum(len(values) for values, _ in pieces)
    ones = np.zeros(total, pieces[0][0].dtype)
    if total:
        first = next(values for values, _ in pieces if len(values))
        hardmax(first[:1], axis, opset=opset)  # the version's checks, before any work
        ones[int(reduce(lambda x: argmax(x, 0, 0), context, "input", data, is_min=False,
                        nan_wins=True))] = 1
    return hardmax(ones, axis, opset=opset, out=out)


def top_k(topk, context, data, k, sorted, out):
    """TopK of a column: each chunk's k best (sorted=0: in index order) with
    their indices over the whole column, then the k best of those candidates
    by the same call, whose ties (the lower position) then fall to the lower
    index over the column. topk is argext.topk with axis, largest and opset bound."""
    pieces = chunks(context, "X", data)
    if len(pieces) == 1:
        return topk(pieces[0][0], k, sorted=sorted, out=out)
    try:
        count = operator.index(k)
    except TypeError:  # the input K: the last call below checks it
        count = int(next(iter(np.asarray(k).reshape(-1)), 0))
    values, indices, offset = [], [], 0
    for chunk, _ in pieces:
        v, i = topk(chunk, min(count, len(chunk)), sorted=0)
        values.append(v)
        indices.append(i + offset)
        offset += len(chunk)
    v, i = topk(np.concatenate(values), k, sorted=sorted, out=out)
    i[...] = np.concatenate(indices)[i]
    return v, i
