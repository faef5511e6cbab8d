/*
 * argext.h - public C99 interface of the argext kernels.
 *
 * ONNX ArgMax / ArgMin / Hardmax / TopK and the DirectML-style multi-axis
 * arg reduction over strided tensors of twelve numeric dtypes. No Python, no
 * NumPy: a C program includes this header and links libargext.
 *
 * Tensors are described by argext_tensor: a data pointer, a dtype, a rank,
 * a shape and byte strides (NULL strides mean C-contiguous). Every entry
 * point validates its descriptors, writes nothing on error and returns an
 * argext_status; argext_last_error() then names the argument and the value
 * that was refused.
 *
 * Threads: every function may be called from any number of threads at once
 * (on distinct outputs). The global settings are the ISA choice
 * (argext_set_isa), the thread count and the parallel-for hook; each call
 * reads them once.
 *
 * Memory: a call uses at most 16 KiB of the caller's stack. Larger scratch
 * (about 330 KiB: column keys, byte-swap blocks, the plan) is one block per
 * thread, allocated on the thread's first call and freed when the thread
 * exits (POSIX threads, Windows fibre-local storage; elsewhere it is
 * allocated and freed by each call). argext_hardmax and
 * argext_hardmax_onto_zeros also allocate one int64 index per output row
 * (malloc, freed before they return); argext_topk allocates 16 bytes per
 * candidate (about 2k + 64 per row being scanned at once) when they exceed
 * the thread's scratch. Input is read in place: byte-swapped
 * input is swapped as it is loaded, or block by block into that scratch,
 * never copied whole.
 */
#ifndef ARGEXT_H
#define ARGEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARGEXT_VERSION_MAJOR 0
#define ARGEXT_VERSION_MINOR 1
#define ARGEXT_VERSION_PATCH 0
#define ARGEXT_VERSION_STRING "0.1.0"

/* Marks the functions the shared library exports (the rest are hidden). */
#ifndef ARGEXT_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define ARGEXT_API __attribute__((visibility("default")))
#else
#define ARGEXT_API
#endif
#endif

/* Largest rank a descriptor may have. */
#define ARGEXT_MAX_RANK 64

/* Element types. Values are part of the ABI; code never reads a kind or
   a size from a value's place in this list. */
typedef enum argext_dtype {
    ARGEXT_FLOAT16 = 0, ARGEXT_BFLOAT16 = 1, ARGEXT_FLOAT32 = 2, ARGEXT_FLOAT64 = 3,
    ARGEXT_INT8 = 4, ARGEXT_INT16 = 5, ARGEXT_INT32 = 6, ARGEXT_INT64 = 7,
    ARGEXT_UINT8 = 8, ARGEXT_UINT16 = 9, ARGEXT_UINT32 = 10, ARGEXT_UINT64 = 11,
    ARGEXT_DTYPE_COUNT = 12
} argext_dtype;

/*
 * A flag or'ed into argext_tensor.dtype: the elements are stored in the
 * opposite byte order to this machine's (NumPy's non-native byte order). Input
 * tensors and Hardmax outputs take it; index outputs do not.
 */
#define ARGEXT_BYTESWAPPED 0x100

typedef enum argext_status {
    ARGEXT_OK = 0,
    ARGEXT_ERR_NULL = 1,        /* a required pointer is NULL */
    ARGEXT_ERR_DTYPE = 2,       /* dtype unknown or not allowed here */
    ARGEXT_ERR_RANK = 3,        /* rank out of range for this operation */
    ARGEXT_ERR_SHAPE = 4,       /* negative dimension, or sizes overflow */
    ARGEXT_ERR_AXIS = 5,        /* axis out of range, or duplicated */
    ARGEXT_ERR_EMPTY_AXIS = 6,  /* a reduced axis has no elements */
    ARGEXT_ERR_OUTPUT = 7,      /* output shape or dtype does not match */
    ARGEXT_ERR_ATTRIBUTE = 8,   /* attribute value out of range */
    ARGEXT_ERR_OVERFLOW = 9,    /* index does not fit the output dtype */
    ARGEXT_ERR_NOMEM = 10,      /* allocation failed */
    ARGEXT_ERR_ISA = 11,        /* ISA unknown or not supported by this CPU */
    ARGEXT_ERR_ALL_NAN = 12     /* a slice holds only NaN (nanargmax/nanargmin) */
} argext_status;

/* The argument a refused call names (argext_last_error). */
typedef enum argext_arg {
    ARGEXT_ARG_NONE = 0,
    ARGEXT_ARG_DATA = 1,              /* the input tensor */
    ARGEXT_ARG_OUTPUT = 2,            /* the output tensor */
    ARGEXT_ARG_AXIS = 3,
    ARGEXT_ARG_AXES = 4,              /* the axes list, or its length */
    ARGEXT_ARG_KEEPDIMS = 5,
    ARGEXT_ARG_SELECT_LAST_INDEX = 6,
    ARGEXT_ARG_DIRECTION = 7,
    ARGEXT_ARG_VERSION = 8,
    ARGEXT_ARG_K = 9,                 /* TopK's k */
    ARGEXT_ARG_LARGEST = 10,
    ARGEXT_ARG_SORTED = 11,
    ARGEXT_ARG_INDICES = 12           /* TopK's index output */
} argext_arg;

/*
 * What the last call of the calling thread refused (status ARGEXT_OK after a
 * call that succeeded):
 *   arg    the argument at fault;
 *   index  the dimension of a DATA or OUTPUT shape, or the entry of AXES
 *          (with value == naxes and index -1: the length); -1 otherwise;
 *   value  the refused value: the axis or attribute as given, the dtype
 *          code, the rank, the dimension's size; for ARGEXT_ERR_OUTPUT on a
 *          shape, the size expected at `index` (-1: the rank is wrong, value
 *          the expected rank); for ARGEXT_ERR_EMPTY_AXIS the axis; for
 *          ARGEXT_ERR_OVERFLOW the number of elements to index.
 */
typedef struct argext_error {
    argext_status status;
    argext_arg arg;
    int index;
    int64_t value;
} argext_error;

typedef struct argext_tensor {
    void *data;
    argext_dtype dtype;
    int rank;
    const int64_t *shape;   /* rank entries, each >= 0 */
    const int64_t *strides; /* rank byte strides, or NULL for C-contiguous */
} argext_tensor;

/* Which occurrence of the extreme value a reduction reports. */
typedef enum argext_direction {
    ARGEXT_FIRST = 0, /* DML_AXIS_DIRECTION_INCREASING, select_last_index=0 */
    ARGEXT_LAST = 1   /* DML_AXIS_DIRECTION_DECREASING, select_last_index=1 */
} argext_direction;

/* Instruction-set levels. The values are ABI: new levels are appended, so
   their order is not their rank (argext_isa_rank gives it). */
typedef enum argext_isa {
    ARGEXT_ISA_BASELINE = 0, /* portable C (what the compiler vectorises) */
    ARGEXT_ISA_AVX2 = 1,     /* x86-64 */
    ARGEXT_ISA_AVX512 = 2,   /* x86-64: F, BW, VL, DQ */
    ARGEXT_ISA_SSE2 = 3,     /* x86-64 */
    ARGEXT_ISA_SSE42 = 4,    /* x86-64: SSE4.1 and SSE4.2 */
    ARGEXT_ISA_NEON = 5,     /* AArch64 Advanced SIMD */
    ARGEXT_ISA_COUNT = 6
} argext_isa;

/* Run-time library version, "MAJOR.MINOR.PATCH". */
ARGEXT_API const char *argext_version(void);

/* A static, human-readable description of a status code. */
ARGEXT_API const char *argext_status_string(argext_status status);

/* Element size in bytes, or 0 for an unknown dtype. */
ARGEXT_API size_t argext_dtype_size(argext_dtype dtype);

/* The detail of the calling thread's last call (see argext_error). */
ARGEXT_API argext_error argext_last_error(void);

/*
 * ONNX ArgMax / ArgMin. `reduced` must be int64 with the input's shape, the
 * reduced axis kept as 1 (keepdims == 1) or removed (keepdims == 0); any
 * other keepdims is refused with ARGEXT_ERR_ATTRIBUTE, as is a
 * select_last_index other than 0 or 1.
 * axis is in [-rank, rank-1]; rank >= 1. NaN is the extreme value (first
 * NaN, or last with select_last_index); -0.0 equals +0.0.
 */
ARGEXT_API argext_status argext_argmax(const argext_tensor *data, const argext_tensor *reduced,
                                       int64_t axis, int keepdims, int select_last_index);
ARGEXT_API argext_status argext_argmin(const argext_tensor *data, const argext_tensor *reduced,
                                       int64_t axis, int keepdims, int select_last_index);

/*
 * Multi-axis arg reduction (DML_ARGMAX_OPERATOR_DESC / DML_ARGMIN_OPERATOR_DESC).
 *
 * axes: naxes (1 <= naxes <= data->rank) distinct axes of `data`, each in
 *   [-rank, rank-1] (a negative a means a + rank), listed in any order.
 * output: rank == data->rank, shape == data's shape with every reduced axis
 *   1; dtype ARGEXT_INT64, ARGEXT_INT32, ARGEXT_UINT64 or ARGEXT_UINT32; any
 *   strides (it must not overlap `data`).
 * Each output element is the index of the largest (argmax) or smallest
 *   (argmin) element of its sub-block, flattened row-major over the reduced
 *   axes taken in increasing axis order whatever the order of `axes`: with
 *   reduced axes r0 < r1 < ... < rk and positions i_r0 ... i_rk,
 *       index = (((i_r0 * shape[r1]) + i_r1) * shape[r2] + ...) + i_rk.
 * direction: ARGEXT_FIRST (DML_AXIS_DIRECTION_INCREASING) gives the smallest
 *   such index among equal extremes, ARGEXT_LAST (..._DECREASING) the largest.
 *   NaN is the extreme for both operators (the first or last NaN); -0.0
 *   equals +0.0; 64-bit integers compare exactly.
 * Indices are computed in int64: a reduction may span more than 2**32
 * elements (zero strides). `data` is read in place, never copied; nothing
 * is allocated.
 *
 * Returns ARGEXT_OK, or, with nothing written:
 *   ARGEXT_ERR_NULL       data, output or axes is NULL, or a needed shape or
 *                         data pointer is;
 *   ARGEXT_ERR_DTYPE      a dtype value outside argext_dtype;
 *   ARGEXT_ERR_RANK       data->rank < 1, or a rank outside [0, ARGEXT_MAX_RANK];
 *   ARGEXT_ERR_SHAPE      a negative dimension, or sizes or byte extents that
 *                         overflow int64;
 *   ARGEXT_ERR_AXIS       naxes outside [1, data->rank], an axis out of range,
 *                         or an axis named twice (e.g. 1 and 1 - rank);
 *   ARGEXT_ERR_ATTRIBUTE  direction is neither ARGEXT_FIRST nor ARGEXT_LAST;
 *   ARGEXT_ERR_OUTPUT     output dtype not one of the four, or wrong rank/shape;
 *   ARGEXT_ERR_EMPTY_AXIS a reduced axis has size 0;
 *   ARGEXT_ERR_OVERFLOW   the product of the reduced sizes, minus 1, exceeds the
 *                         output dtype's maximum (INT32_MAX or UINT32_MAX;
 *                         never for the 64-bit dtypes).
 */
ARGEXT_API argext_status argext_reduce_argmax(const argext_tensor *data,
                                              const argext_tensor *output, const int64_t *axes,
                                              int naxes, argext_direction direction);
ARGEXT_API argext_status argext_reduce_argmin(const argext_tensor *data,
                                              const argext_tensor *output, const int64_t *axes,
                                              int naxes, argext_direction direction);

/*
 * NumPy's nanargmax / nanargmin: the index of the largest (smallest) element
 * along one axis, NaN ranked as NumPy ranks it: as -inf for nanargmax, +inf
 * for nanargmin, so it never wins over a number but ties with that infinity
 * (nanargmin([nan, nan, inf]) is 0, as numpy.nanargmin gives). `axis` points
 * at an axis in [-rank, rank-1], or is NULL for every axis at once (NumPy's
 * axis=None: the row-major flattened index). `reduced` is int64 with the
 * input's shape, the reduced axes kept as 1 (keepdims == 1) or removed
 * (keepdims == 0; any other value: ARGEXT_ERR_ATTRIBUTE). Ties give the first
 * occurrence; -0.0 equals +0.0; integer dtypes behave as argext_argmax /
 * argext_argmin. The input is read once, in place.
 *
 * ARGEXT_ERR_ALL_NAN: some slice holds only NaN (NumPy raises "All-NaN slice
 * encountered"); the output is written in full, with -1 at those slices and
 * argext_last_error() giving the first such output position (row-major) as
 * value. Every other status writes nothing, as for argext_argmax.
 */
ARGEXT_API argext_status argext_nanargmax(const argext_tensor *data, const argext_tensor *reduced,
                                          const int64_t *axis, int keepdims);
ARGEXT_API argext_status argext_nanargmin(const argext_tensor *data, const argext_tensor *reduced,
                                          const int64_t *axis, int keepdims);

/*
 * ONNX Hardmax for operator version 1, 11 or 13. `output` has the input's
 * dtype and shape: FLOAT16, FLOAT32 or FLOAT64, and BFLOAT16 from version 13
 * (else ARGEXT_ERR_DTYPE). Version 13 one-hots along `axis`; versions 1 and 11
 * coerce the input to 2-D [prod(shape[:axis]), prod(shape[axis:])] and
 * one-hot each coerced row. The 1 marks the first maximum (the first NaN if
 * any). Version 1 accepts axis in [0, rank-1], later versions [-rank, rank-1].
 */
ARGEXT_API argext_status argext_hardmax(const argext_tensor *input, const argext_tensor *output,
                                        int64_t axis, int version);

/*
 * argext_hardmax for an output whose elements are all zero already (say, a
 * calloc'd buffer, whose pages the OS zeroed): writes only the ones, skipping
 * the zero fill. Same checks and statuses as argext_hardmax.
 */
ARGEXT_API argext_status argext_hardmax_onto_zeros(const argext_tensor *input,
                                                   const argext_tensor *output, int64_t axis,
                                                   int version);

/*
 * ONNX TopK (versions 1, 10, 11, 24): the k largest (largest == 1) or
 * smallest (largest == 0) elements along `axis` and their indices.
 *
 * data: any dtype (ARGEXT_BYTESWAPPED allowed), rank >= 1, any strides;
 *   axis in [-rank, rank-1].
 * values: data's dtype in native byte order (ARGEXT_BYTESWAPPED refused);
 * indices: ARGEXT_INT64. Both have data's shape with the axis extent k,
 *   any strides (they must not overlap `data` or each other).
 * k in [0, n], n the axis extent; k == 0 writes and reads nothing.
 * Ranking: by value, descending (largest) or ascending; equal values rank
 *   the lower index first; NaN ranks first for both (so k == 1 gives
 *   argext_argmax / argext_argmin), lower index first among NaNs; -0.0
 *   equals +0.0; 64-bit integers compare exactly. Values are the input's
 *   elements bit for bit (a -0.0 stays -0.0, a NaN keeps its payload), in
 *   native byte order.
 * sorted == 1: outputs in rank order, best first. sorted == 0: the same k
 *   elements in ascending index order (ONNX leaves the order open).
 * The input is read once, in place; large calls split over threads (rows,
 *   or pieces of one long row whose candidates are merged exactly).
 *
 * Returns ARGEXT_OK, or, with nothing written:
 *   ARGEXT_ERR_NULL       a descriptor, or a needed shape or data pointer, is NULL;
 *   ARGEXT_ERR_DTYPE      a dtype value outside argext_dtype;
 *   ARGEXT_ERR_RANK       data->rank < 1, or a rank outside [0, ARGEXT_MAX_RANK];
 *   ARGEXT_ERR_SHAPE      a negative dimension, or sizes that overflow int64;
 *   ARGEXT_ERR_AXIS       axis out of range;
 *   ARGEXT_ERR_ATTRIBUTE  k outside [0, n] (ARGEXT_ARG_K), largest or sorted
 *                         not 0 or 1 (ARGEXT_ARG_LARGEST, ARGEXT_ARG_SORTED);
 *   ARGEXT_ERR_OUTPUT     values (ARGEXT_ARG_OUTPUT) or indices
 *                         (ARGEXT_ARG_INDICES) of the wrong dtype, rank or shape;
 *   ARGEXT_ERR_NOMEM      the candidates' memory could not be allocated.
 */
ARGEXT_API argext_status argext_topk(const argext_tensor *data, const argext_tensor *values,
                                     const argext_tensor *indices, int64_t axis, int64_t k,
                                     int largest, int sorted);

/*
 * Threads. The engine splits a call with about 12 MiB of input or more into
 * parts (rows, columns, or pieces of one long row, merged exactly), at most
 * one per thread, and runs them on a persistent pool of worker threads that
 * starts on first need; smaller calls run on the calling thread alone.
 * Results are bit-identical whatever the number of threads.
 *
 * The default number is the CPUs this process may use (the affinity mask and,
 * on Linux, the cgroup CPU quota), or the environment variable
 * ARGEXT_NUM_THREADS (a positive integer), read once on first use.
 */
#define ARGEXT_MAX_THREADS 1024

/* Threads a large call may use (the calling thread included). */
ARGEXT_API int argext_get_num_threads(void);

/* n in [1, ARGEXT_MAX_THREADS], or 0 for the default; else ARGEXT_ERR_ATTRIBUTE.
   Calls already running keep the number they started with. */
ARGEXT_API argext_status argext_set_num_threads(int n);

/* One part of a call's work. */
typedef void (*argext_task)(void *context, int64_t task);

/*
 * An embedding application's parallel-for: calls task(context, i) exactly
 * once for each i in [0, ntasks), on any of its threads (the calling one
 * included), and returns when all have returned. It may be called from
 * several threads at once, and from within its own tasks' threads.
 */
typedef void (*argext_parallel_for)(void *host, int64_t ntasks, argext_task task, void *context);

/*
 * Runs argext's parts on the host's parallel_for (host is passed back to it)
 * instead of argext's own pool, which then starts no thread; NULL restores the
 * pool. argext_set_num_threads still sets how many parts a call is split into:
 * set it to the host pool's width. Set it before calls run concurrently.
 */
ARGEXT_API void argext_set_parallel_for(argext_parallel_for parallel_for, void *host);

/* Instruction-set levels. */
ARGEXT_API int argext_isa_supported(argext_isa isa);     /* 1 if this CPU and build run it */
ARGEXT_API argext_isa argext_isa_best(void);             /* best supported level */
ARGEXT_API argext_isa argext_get_isa(void);              /* level in use */
ARGEXT_API argext_status argext_set_isa(argext_isa isa); /* force a supported level */
ARGEXT_API const char *argext_isa_name(argext_isa isa);  /* "baseline", "sse2", "avx2", ... */
ARGEXT_API int argext_isa_rank(argext_isa isa);          /* order among one architecture's levels, lowest first; -1 if unknown */

#ifdef __cplusplus
}
#endif

#endif /* ARGEXT_H */
