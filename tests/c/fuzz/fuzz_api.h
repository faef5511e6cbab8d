/*
 * fuzz_api.h - what the parts of the libFuzzer harness share (the .c files of
 * tests/c/fuzz). Like a C user, the harness sees argext through argext.h alone.
 *
 *   fuzz_api.c    the entry point: one input becomes one call, run and checked
 *   input.c       the input bytes, and element values decoded independently of argext
 *   descriptors.c shapes, strides and buffers of the input and output descriptors
 *   faults.c      the statuses argext.h allows a refusal of a call to carry
 *   reference.c   the scalar reference and the comparison of an accepted call's output
 *   topk.c        TopK: its attributes, two outputs, faults and reference
 */
#ifndef ARGEXT_FUZZ_API_H
#define ARGEXT_FUZZ_API_H

#include <stddef.h>
#include <stdint.h>

#include "argext.h"

/* ---- checking (fuzz_api.c): a failed check prints the call and aborts, which
   libFuzzer reports with the input. A macro only to name the condition and line. */

#define CHECK(cond, ...) ((cond) ? (void)0 : check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__))
__attribute__((noreturn, format(printf, 4, 5))) void check_failed(const char *file, int line,
                                                                  const char *cond,
                                                                  const char *format, ...);

/* ---- the input, read a byte at a time, zeros once it runs out (input.c) */

typedef struct {
    const uint8_t *p;
    size_t n;
} source;

unsigned byte_of(source *s);
int pick(source *s, int bound);                   /* in [0, bound), bound <= 256 */
int64_t pick_in(source *s, int64_t lo, int64_t hi); /* in [lo, hi], hi - lo < 256 */

/* ---- element values, independent of argext (input.c) */

extern const size_t itemsizes[ARGEXT_DTYPE_COUNT];
int is_float(int dt);

/* An element as the reference ranks it: floats as double (NaN flagged),
   signed and unsigned integers exactly. */
typedef struct {
    int nan;
    double f;
    int64_t i;
    uint64_t u;
} value;

value load_value(const unsigned char *p, int dt, int swapped);
int compare(value a, value b, int dt); /* -1, 0, 1; neither is NaN */
/* Stores special value `which` (0-7) of dt: ties, signed zeros, NaN, infinities, extremes;
   2 is one in every dtype. */
void store_special(unsigned char *p, int dt, int swapped, int which);

/* ---- descriptors (descriptors.c) */

typedef struct {
    argext_tensor t;
    int64_t shape[ARGEXT_MAX_RANK + 2];
    int64_t strides[ARGEXT_MAX_RANK + 2];
    unsigned char *buffer; /* the allocation; t.data points into it */
    size_t bytes;
    int64_t count;         /* elements, when the shape is valid */
} tensor;

int layout(const tensor *x, size_t size, int64_t *count, int64_t *lo, int64_t *hi);
int64_t stride_of(const tensor *x, int d, size_t size);
int place(tensor *x, size_t size);
int64_t offset_of(const tensor *x, int64_t flat, size_t size);
void draw_input(source *s, tensor *x, int *huge);
void fill_input(source *s, tensor *x);
/* An output of `rank` dimensions (shape set) and dtype dt: maybe wrong in one
   way, then C order or strided. */
void finish_output(source *s, tensor *y, int rank, int dt);

/* ---- the calls */

/* OP_TOPK last: a seed's first byte picks its operation, so the others keep
   their numbers. */
enum { OP_ARGMAX, OP_ARGMIN, OP_REDUCE_ARGMAX, OP_REDUCE_ARGMIN, OP_NANARGMAX, OP_NANARGMIN,
       OP_HARDMAX, OP_HARDMAX_ONTO_ZEROS, OP_SETTINGS, OP_TOPK, OP_COUNT };

typedef struct {
    int op;
    tensor in, out;
    tensor idx;            /* TopK's indices (out: its values) */
    int64_t k;             /* TopK */
    int largest, sorted;   /* TopK */
    int idx_null;          /* TopK: a NULL indices descriptor */
    int shared;            /* TopK: values written into the indices' memory */
    int64_t axis;          /* argmax/argmin/hardmax; nanarg when has_axis */
    int has_axis;
    int64_t axes[ARGEXT_MAX_RANK + 2];
    int naxes;
    int keepdims, select_last, direction, version;
    int in_null, out_null, axes_null;
} call;

int is_hardmax(int op);
int is_reduce(int op); /* the DirectML-style multi-axis reductions */

/* The reduction a call asks for: which input dimensions are reduced, and
   whether the output keeps them (as 1). */
typedef struct {
    unsigned char reduced[ARGEXT_MAX_RANK + 2];
    int keep;
} reduction;

void draw_output(source *s, call *c, const reduction *red);                /* descriptors.c */
int64_t out_offset(const call *c, const reduction *red, int64_t k, size_t size);

/* ---- what argext.h allows (faults.c) */

#define BIT(st) (1u << (st))

/* The statuses a refusal of c may carry, as BIT()s (0: the call is valid),
   and the reduction of a valid one. */
unsigned faults(const call *c, reduction *red);

/* ---- the reference (reference.c) */

/* Checks an accepted call's status and output against the scalar reference. */
void check_accepted(const call *c, const reduction *red, argext_status st, argext_error err,
                    argext_isa level);

/* ---- TopK (topk.c) */

/* k, largest, sorted and the two outputs, right or wrong (after draw_attributes). */
void draw_topk(source *s, call *c, int huge);
/* The elements: fill_input's, or a pseudo-random stream for long rows. */
void fill_topk_input(source *s, tensor *x);
/* After placing: values moved into the indices' memory when c->shared. */
void share_topk_outputs(call *c);
void check_topk(const call *c, argext_status st, argext_isa level);
/* Whether a TopK call's outputs overlap (shared or a zero stride): then any
   element may win, at each level in its own order of writes. */
int topk_outputs_overlap(const call *c);

#endif
