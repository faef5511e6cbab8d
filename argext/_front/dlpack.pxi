# DLPack, both ways, without NumPy's DLPack support (which lacks bfloat16):
# an object offering __dlpack__ on the CPU is read in place through an
# ndarray view of its memory (bfloat16 as its 16-bit patterns, the dtype
# code saying what they are), and a result goes back to the caller's array
# library as a DLPack export of the NumPy array holding it.

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    typedef struct { int32_t device_type; int32_t device_id; } axdl_device;
    typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } axdl_dtype;
    typedef struct {
        void *data; axdl_device device; int32_t ndim; axdl_dtype dtype;
        int64_t *shape; int64_t *strides; uint64_t byte_offset;
    } axdl_tensor;
    typedef struct axdl_managed {
        axdl_tensor dl_tensor; void *manager_ctx; void (*deleter)(struct axdl_managed *);
    } axdl_managed;
    typedef struct axdl_managed_v {
        uint32_t major, minor; void *manager_ctx; void (*deleter)(struct axdl_managed_v *);
        uint64_t flags; axdl_tensor dl_tensor;
    } axdl_managed_v;
    #define AXDL_READ_ONLY 1u

    /* The tensor of a capsule from __dlpack__ (NULL: not a DLPack capsule);
       *managed: what axdl_release frees. */
    static axdl_tensor *axdl_open(PyObject *capsule, void **managed, int *versioned, int *readonly)
    {
        *versioned = PyCapsule_IsValid(capsule, "dltensor_versioned");
        if (*versioned) {
            axdl_managed_v *m = (axdl_managed_v *)PyCapsule_GetPointer(capsule, "dltensor_versioned");
            if (!m || m->major != 1)
                return NULL;
            *managed = m;
            *readonly = (m->flags & AXDL_READ_ONLY) != 0;
            return &m->dl_tensor;
        }
        if (!PyCapsule_IsValid(capsule, "dltensor"))
            return NULL;
        axdl_managed *m = (axdl_managed *)PyCapsule_GetPointer(capsule, "dltensor");
        *managed = m;
        *readonly = 0;
        return &m->dl_tensor;
    }

    /* Takes the tensor out of its capsule: the consumer now calls the deleter. */
    static int axdl_claim(PyObject *capsule, int versioned)
    {
        return PyCapsule_SetName(capsule, versioned ? "used_dltensor_versioned" : "used_dltensor");
    }

    static void axdl_release(void *managed, int versioned)
    {
        if (versioned) {
            axdl_managed_v *m = (axdl_managed_v *)managed;
            if (m->deleter)
                m->deleter(m);
        } else {
            axdl_managed *m = (axdl_managed *)managed;
            if (m->deleter)
                m->deleter(m);
        }
    }

    /* An export: the managed tensor, its shape and strides in one block; the
       owner (a NumPy array) is referenced until the consumer deletes it. */
    static void axdl_free_owner(void *owner, void *block)
    {
        PyGILState_STATE g = PyGILState_Ensure();
        Py_XDECREF((PyObject *)owner);
        PyGILState_Release(g);
        free(block);
    }
    static void axdl_delete(axdl_managed *m) { axdl_free_owner(m->manager_ctx, m); }
    static void axdl_delete_v(axdl_managed_v *m) { axdl_free_owner(m->manager_ctx, m); }

    static void axdl_capsule_destructor(PyObject *capsule)
    {
        /* Never consumed: the export deletes itself. */
        if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
            axdl_managed_v *m = (axdl_managed_v *)PyCapsule_GetPointer(capsule, "dltensor_versioned");
            m->deleter(m);
        } else if (PyCapsule_IsValid(capsule, "dltensor")) {
            axdl_managed *m = (axdl_managed *)PyCapsule_GetPointer(capsule, "dltensor");
            m->deleter(m);
        }
    }

    static PyObject *axdl_export(PyObject *owner, void *data, int ndim, const Py_ssize_t *shape,
                                 const Py_ssize_t *byte_strides, int itemsize, axdl_dtype dtype,
                                 int versioned)
    {
        size_t head = versioned ? sizeof(axdl_managed_v) : sizeof(axdl_managed);
        head = (head + 7) & ~(size_t)7;
        char *block = (char *)malloc(head + 2 * sizeof(int64_t) * (size_t)(ndim ? ndim : 1));
        if (!block)
            return PyErr_NoMemory();
        memset(block, 0, head);
        axdl_tensor *t;
        if (versioned) {
            axdl_managed_v *m = (axdl_managed_v *)block;
            m->major = 1;
            m->minor = 0;
            m->manager_ctx = owner;
            m->deleter = axdl_delete_v;
            t = &m->dl_tensor;
        } else {
            axdl_managed *m = (axdl_managed *)block;
            m->manager_ctx = owner;
            m->deleter = axdl_delete;
            t = &m->dl_tensor;
        }
        int64_t *dims = (int64_t *)(block + head);
        for (int d = 0; d < ndim; d++) {
            dims[d] = shape[d];
            dims[ndim + d] = byte_strides[d] / itemsize;
        }
        t->data = data;
        t->device.device_type = 1; /* kDLCPU */
        t->ndim = ndim;
        t->dtype = dtype;
        t->shape = dims;
        t->strides = dims + ndim;
        Py_INCREF(owner);
        PyObject *capsule = PyCapsule_New(block, versioned ? "dltensor_versioned" : "dltensor",
                                          axdl_capsule_destructor);
        if (!capsule)
            axdl_free_owner(owner, block);
        return capsule;
    }
    """
    ctypedef struct axdl_device:
        int32_t device_type
        int32_t device_id
    ctypedef struct axdl_dtype:
        uint8_t code
        uint8_t bits
        uint16_t lanes
    ctypedef struct axdl_tensor:
        void *data
        axdl_device device
        int32_t ndim
        axdl_dtype dtype
        int64_t *shape
        int64_t *strides
        uint64_t byte_offset
    axdl_tensor *axdl_open(object capsule, void **managed, int *versioned, int *readonly)
    int axdl_claim(object capsule, int versioned) except -1
    void axdl_release(void *managed, int versioned)
    object axdl_export(object owner, void *data, int ndim, const Py_ssize_t *shape,
                       const Py_ssize_t *byte_strides, int itemsize, axdl_dtype dtype,
                       int versioned)

# DLPack's type codes (DLDataTypeCode) and the CPU device (kDLCPU).
cdef enum:
    DL_INT = 0
    DL_UINT = 1
    DL_FLOAT = 2
    DL_BFLOAT = 4
    DL_BOOL = 6
    DL_CPU = 1


cdef axdl_dtype _dl_type(int code):
    """argext's dtype `code` as a DLPack dtype (its kind from its name in the dtype list)."""
    cdef axdl_dtype t
    t.code = {"f": DL_FLOAT, "b": DL_BFLOAT, "i": DL_INT, "u": DL_UINT}[DTYPES[code][0]]
    t.bits = 8 * argext_dtype_size(<argext_dtype>code)
    t.lanes = 1
    return t


cdef class _DLPackImport:
    """Owns a consumed DLPack tensor; NumPy views it through __array_interface__
    and keeps this object (and so the producer's memory) alive as its base."""
    cdef void *managed
    cdef int versioned
    cdef dict interface

    @property
    def __array_interface__(self):
        return self.interface

    def __dealloc__(self):
        if self.managed != NULL:
            axdl_release(self.managed, self.versioned)


cdef str _dl_typestr(axdl_dtype t):
    """The NumPy typestr viewing a DLPack dtype (bfloat16 as uint16 patterns), or None."""
    if t.lanes != 1:
        return None
    if t.code == DL_BOOL and t.bits == 8:
        return "|b1"
    if t.code == DL_BFLOAT and t.bits == 16:
        return "<u2" if sys.byteorder == "little" else ">u2"
    if t.code in (DL_INT, DL_UINT, DL_FLOAT) and t.bits in (8, 16, 32, 64):
        if t.code == DL_FLOAT and t.bits == 8:
            return None
        return np.dtype(f"{'iuf'[t.code]}{t.bits // 8}").str
    return None


# DLPack's names of its type codes (dlpack.h's DLDataTypeCode, kDL dropped), for refusals.
_DL_CODE_NAMES = ("Int", "UInt", "Float", "OpaqueHandle", "Bfloat", "Complex", "Bool",
                  "Float8_e3m4", "Float8_e4m3", "Float8_e4m3b11fnuz", "Float8_e4m3fn",
                  "Float8_e4m3fnuz", "Float8_e5m2", "Float8_e5m2fnuz", "Float8_e8m0fnu",
                  "Float6_e2m3fn", "Float6_e3m2fn", "Float4_e2m1fn")


cdef str _dl_dtype_text(object data, axdl_dtype t):
    """A DLPack dtype argext lacks, as its producer and DLPack name it."""
    name = _DL_CODE_NAMES[t.code] if t.code < len(_DL_CODE_NAMES) else "unknown"
    lanes = f", {t.lanes} lanes" if t.lanes != 1 else ""
    own = getattr(data, "dtype", None)
    return f"{own if own is not None else name} (DLPack code {t.code}, {name}, {t.bits} bits{lanes})"


cdef cnp.ndarray _from_dlpack(object context, str what, object data, unsigned int allowed,
                              int *code):
    """An ndarray view of an object offering __dlpack__; *code: its argext
    code (bfloat16 for bfloat16 tensors; -1 for a dtype argext lacks). A
    DLPack dtype NumPy has no view of (complex, the 8-bit and narrower floats)
    is refused as argext refuses a NumPy dtype, naming the `allowed` ones."""
    if type(data).__module__.startswith("torch") and data.requires_grad:
        data = data.detach()  # the same memory; argmax has no gradient
    device = getattr(data, "__dlpack_device__", None)
    if device is not None:
        kind, number = device()
        if kind != DL_CPU:
            raise ValueError(f"{context}: {what} is on DLPack device ({kind}, {number}), not the "
                             f"CPU; argext computes on the CPU: move it there first (e.g. "
                             f"torch's .cpu(), jax.device_put(x, jax.devices('cpu')[0]))")
    try:
        capsule = data.__dlpack__(max_version=(1, 0))
    except TypeError:  # a producer older than DLPack 1.0
        capsule = data.__dlpack__()
    cdef void *managed = NULL
    cdef int versioned, readonly
    cdef axdl_tensor *t = axdl_open(capsule, &managed, &versioned, &readonly)
    if t == NULL:
        raise TypeError(f"{context}: {what}.__dlpack__() gave {capsule!r}, not a DLPack 1.x "
                        f"or 0.x capsule")
    axdl_claim(capsule, versioned)
    cdef _DLPackImport owner = _DLPackImport.__new__(_DLPackImport)
    owner.managed = managed
    owner.versioned = versioned
    typestr = _dl_typestr(t.dtype)
    if typestr is None:
        raise _errors.dtype_refused(context, what, _dl_dtype_text(data, t.dtype),
                                    _dtype_names(allowed), convert=True)
    cdef int d, itemsize = t.dtype.bits // 8
    shape = tuple(t.shape[d] for d in range(t.ndim))
    strides = None if t.strides == NULL else tuple(t.strides[d] * itemsize for d in range(t.ndim))
    address = <size_t>t.data + t.byte_offset
    owner.interface = {"version": 3, "shape": shape, "typestr": typestr,
                       "data": (address, bool(readonly)), "strides": strides}
    cdef cnp.ndarray arr = np.asarray(owner)
    code[0] = ARGEXT_BFLOAT16 if t.dtype.code == DL_BFLOAT else _code(arr.dtype)
    return arr


cdef class _DLPackExport:
    """A NumPy array holding a result, offered through DLPack with the dtype its
    code names (bfloat16 too): what the caller's from_dlpack reads in place."""
    cdef cnp.ndarray array
    cdef int code

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if dl_device is not None and tuple(dl_device)[0] != DL_CPU:
            raise BufferError("argext results live on the CPU")
        if copy:
            raise BufferError("argext exports its results without a copy")
        cdef cnp.ndarray a = self.array
        return axdl_export(a, cnp.PyArray_DATA(a), cnp.PyArray_NDIM(a),
                           <const Py_ssize_t *>cnp.PyArray_DIMS(a),
                           <const Py_ssize_t *>cnp.PyArray_STRIDES(a), cnp.PyArray_ITEMSIZE(a),
                           _dl_type(self.code),
                           max_version is not None and tuple(max_version)[0] >= 1)

    def __dlpack_device__(self):
        return (DL_CPU, 0)


cdef object _to_caller(cnp.ndarray result, object data, int code):
    """result in the array type of `data` (which offered __dlpack__): torch's, or
    that of the object's __array_namespace__; else as NumPy (bfloat16: as the
    DLPack export itself, for NumPy has no bfloat16 without ml_dtypes)."""
    cdef _DLPackExport export = _DLPackExport.__new__(_DLPackExport)
    export.array = result
    export.code = code & ~ARGEXT_BYTESWAPPED
    if type(data).__module__.startswith("torch"):
        return sys.modules["torch"].from_dlpack(export)
    namespace = getattr(data, "__array_namespace__", None)
    if namespace is not None:
        return namespace().from_dlpack(export)
    return export if export.code == ARGEXT_BFLOAT16 else result
