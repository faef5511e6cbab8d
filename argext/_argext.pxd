# Declarations of the C core (csrc/include/argext.h) for Cython code.
from libc.stdint cimport int64_t


cdef extern from "argext.h" nogil:
    enum: ARGEXT_MAX_RANK
    int ARGEXT_BYTESWAPPED

    ctypedef enum argext_dtype:
        ARGEXT_FLOAT16
        ARGEXT_BFLOAT16
        ARGEXT_FLOAT32
        ARGEXT_FLOAT64
        ARGEXT_INT8
        ARGEXT_INT16
        ARGEXT_INT32
        ARGEXT_INT64
        ARGEXT_UINT8
        ARGEXT_UINT16
        ARGEXT_UINT32
        ARGEXT_UINT64
        ARGEXT_DTYPE_COUNT

    ctypedef enum argext_status:
        ARGEXT_OK
        ARGEXT_ERR_NULL
        ARGEXT_ERR_DTYPE
        ARGEXT_ERR_RANK
        ARGEXT_ERR_SHAPE
        ARGEXT_ERR_AXIS
        ARGEXT_ERR_EMPTY_AXIS
        ARGEXT_ERR_OUTPUT
        ARGEXT_ERR_ATTRIBUTE
        ARGEXT_ERR_OVERFLOW
        ARGEXT_ERR_NOMEM
        ARGEXT_ERR_ISA
        ARGEXT_ERR_ALL_NAN

    ctypedef enum argext_arg:
        ARGEXT_ARG_NONE
        ARGEXT_ARG_DATA
        ARGEXT_ARG_OUTPUT
        ARGEXT_ARG_AXIS
        ARGEXT_ARG_AXES
        ARGEXT_ARG_KEEPDIMS
        ARGEXT_ARG_SELECT_LAST_INDEX
        ARGEXT_ARG_DIRECTION
        ARGEXT_ARG_VERSION
        ARGEXT_ARG_K
        ARGEXT_ARG_LARGEST
        ARGEXT_ARG_SORTED
        ARGEXT_ARG_INDICES

    ctypedef struct argext_error:
        argext_status status
        argext_arg arg
        int index
        int64_t value

    ctypedef struct argext_tensor:
        void *data
        argext_dtype dtype
        int rank
        const int64_t *shape
        const int64_t *strides

    ctypedef enum argext_direction:
        ARGEXT_FIRST
        ARGEXT_LAST

    int ARGEXT_MAX_THREADS
    ctypedef void (*argext_task)(void *context, int64_t task) noexcept nogil
    ctypedef void (*argext_parallel_for)(void *host, int64_t ntasks, argext_task task,
                                         void *context) noexcept nogil

    ctypedef enum argext_isa:
        ARGEXT_ISA_BASELINE
        ARGEXT_ISA_AVX2
        ARGEXT_ISA_AVX512
        ARGEXT_ISA_SSE2
        ARGEXT_ISA_SSE42
        ARGEXT_ISA_NEON
        ARGEXT_ISA_COUNT

    const char *argext_version()
    const char *argext_status_string(argext_status status)
    size_t argext_dtype_size(argext_dtype dtype)
    argext_error argext_last_error()

    argext_status argext_argmax(const argext_tensor *data, const argext_tensor *reduced,
                                int64_t axis, int keepdims, int select_last_index)
    argext_status argext_argmin(const argext_tensor *data, const argext_tensor *reduced,
                                int64_t axis, int keepdims, int select_last_index)
    argext_status argext_reduce_argmax(const argext_tensor *data, const argext_tensor *output,
                                       const int64_t *axes, int naxes, argext_direction direction)
    argext_status argext_reduce_argmin(const argext_tensor *data, const argext_tensor *output,
                                       const int64_t *axes, int naxes, argext_direction direction)
    argext_status argext_nanargmax(const argext_tensor *data, const argext_tensor *reduced,
                                   const int64_t *axis, int keepdims)
    argext_status argext_nanargmin(const argext_tensor *data, const argext_tensor *reduced,
                                   const int64_t *axis, int keepdims)
    argext_status argext_hardmax(const argext_tensor *input, const argext_tensor *output,
                                 int64_t axis, int version)
    argext_status argext_hardmax_onto_zeros(const argext_tensor *input,
                                            const argext_tensor *output, int64_t axis,
                                            int version)
    argext_status argext_topk(const argext_tensor *data, const argext_tensor *values,
                              const argext_tensor *indices, int64_t axis, int64_t k,
                              int largest, int sorted)

    int argext_get_num_threads()
    argext_status argext_set_num_threads(int n)
    void argext_set_parallel_for(argext_parallel_for parallel_for, void *host)

    int argext_isa_supported(argext_isa isa)
    argext_isa argext_isa_best()
    argext_isa argext_get_isa()
    argext_status argext_set_isa(argext_isa isa)
    const char *argext_isa_name(argext_isa isa)
    int argext_isa_rank(argext_isa isa)
