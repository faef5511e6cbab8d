# Large fresh outputs (TopK's values and indices of OUTPUT_BLOCK_MIN bytes and
# more) come from argext's own NumPy memory handler, argext_outputs: blocks
# placed at a chosen byte offset from a 64-byte boundary (the kernels read the
# input in aligned vectors and write such outputs with streaming stores, which
# need aligned vectors too: the offset puts both in step) and asked for as
# transparent huge pages (as NumPy does for its own large blocks). A freed
# block goes straight back to the C library: argext keeps no memory of its
# own once the arrays are gone.
# The arrays are ordinary NumPy arrays that own their data; the handler is set
# only around their allocation, and only where the caller's context has
# NumPy's default handler (a handler of the caller's own is left to do its
# work).

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif

    #if defined(_MSC_VER) && !defined(__clang__)
    #define ARGEXT_TLS __declspec(thread)
    #else
    #define ARGEXT_TLS _Thread_local
    #endif

    #define OUTPUT_ALIGN 64

    /* A block: its malloc'd start and its size, just before its data. */
    typedef struct {
        void *raw;
        size_t size;
    } argext_output_head;

    /* The offset from a 64-byte boundary of the next block this thread asks for. */
    static ARGEXT_TLS size_t argext_output_phase;

    static argext_output_head *argext_output_head_of(void *data)
    {
        return (argext_output_head *)((char *)data - sizeof(argext_output_head));
    }

    static void *argext_output_malloc(void *ctx, size_t size)
    {
        (void)ctx;
        size = size ? size : 1;
        if (size > (size_t)-1 - 2 * OUTPUT_ALIGN - sizeof(argext_output_head))
            return NULL;
        char *raw = (char *)malloc(size + 2 * OUTPUT_ALIGN + sizeof(argext_output_head));
        if (!raw)
            return NULL;
        uintptr_t at = (uintptr_t)(raw + sizeof(argext_output_head));
        char *data = (char *)((at + OUTPUT_ALIGN - 1) & ~(uintptr_t)(OUTPUT_ALIGN - 1));
        data += argext_output_phase % OUTPUT_ALIGN;
        argext_output_head_of(data)->raw = raw;
        argext_output_head_of(data)->size = size;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        /* The whole pages inside the data (the head's page is not asked for). */
        uintptr_t first = ((uintptr_t)data + 4095) & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)data + size) & ~(uintptr_t)4095;
        if (end > first)
            madvise((void *)first, end - first, MADV_HUGEPAGE);
    #endif
        return data;
    }

    static void *argext_output_calloc(void *ctx, size_t n, size_t itemsize)
    {
        if (itemsize && n > (size_t)-1 / itemsize)
            return NULL;
        void *data = argext_output_malloc(ctx, n * itemsize);
        if (data)
            memset(data, 0, n * itemsize);
        return data;
    }

    static void argext_output_free(void *ctx, void *data, size_t size)
    {
        (void)ctx, (void)size;
        if (data)
            free(argext_output_head_of(data)->raw);
    }

    static void *argext_output_realloc(void *ctx, void *data, size_t size)
    {
        if (!data)
            return argext_output_malloc(ctx, size);
        size_t have = argext_output_head_of(data)->size;
        void *moved = argext_output_malloc(ctx, size);
        if (!moved)
            return NULL;
        memcpy(moved, data, have < size ? have : size);
        argext_output_free(ctx, data, have);
        return moved;
    }

    static PyDataMem_Handler argext_output_handler = {
        "argext_outputs", 1,
        {NULL, argext_output_malloc, argext_output_calloc, argext_output_realloc,
         argext_output_free}};
    """
    cnp.PyDataMem_Handler argext_output_handler
    size_t argext_output_phase


# Outputs of at least this many bytes come from argext_outputs.
cdef Py_ssize_t OUTPUT_BLOCK_MIN = 4 << 20
cdef object _OUTPUT_HANDLER = PyCapsule_New(<void *>&argext_output_handler, "mem_handler", NULL)


cdef object _empty(object shape, object dtype, size_t phase=0):
    """np.empty(shape, dtype), from argext_outputs when it is large and the
    caller's context has NumPy's default handler: its data `phase` bytes past
    a 64-byte boundary."""
    n = dtype.itemsize
    for d in shape:
        n *= d
    if n < OUTPUT_BLOCK_MIN:
        return np.empty(shape, dtype)
    current = cnp.PyDataMem_GetHandler()
    cdef cnp.PyDataMem_Handler *h = <cnp.PyDataMem_Handler *>PyCapsule_GetPointer(current,
                                                                                 "mem_handler")
    if strcmp(h.name, b"default_allocator") != 0:
        return np.empty(shape, dtype)
    global argext_output_phase
    argext_output_phase = phase
    old = cnp.PyDataMem_SetHandler(_OUTPUT_HANDLER)
    try:
        return np.empty(shape, dtype)
    finally:
        cnp.PyDataMem_SetHandler(old)


cdef tuple _output_phases(cnp.ndarray arr):
    """Offsets from a 64-byte boundary for outputs (values of arr's itemsize,
    int64 indices) whose columns line up with arr's: where arr's first aligned
    element lies, theirs does too."""
    cdef size_t at = <size_t>cnp.PyArray_DATA(arr) % 64, w = cnp.PyArray_ITEMSIZE(arr)
    if at % w:
        return 0, 0
    cdef size_t lead = (64 - at) % 64 // w  # elements before arr's first aligned one
    return at, (64 - lead * 8 % 64) % 64
