/*
 * driver.h - what the parts of the C test driver share (the .c files of tests/c). The
 * driver sees the C core only through its public header, as a C user does.
 */
#ifndef ARGEXT_TEST_DRIVER_H
#define ARGEXT_TEST_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "argext.h"

#define MAXR ARGEXT_MAX_RANK
#define SENTINEL 0xA5

/* ---- checking (check.c) */

extern long n_pass, n_fail;
extern char where[512]; /* the case being run, for failure messages */

/* Counts a check; prints the first 40 failures with the case in `where`. */
#define CHECK(cond, ...) check_that((cond) != 0, __LINE__, __VA_ARGS__)
void check_that(int ok, int line, const char *format, ...);
void expect_status(const char *what, argext_status got, argext_status want);

extern uint64_t rng_state;
uint64_t rnd(void);                     /* splitmix64 */
int64_t rnd_in(int64_t lo, int64_t hi); /* uniform in [lo, hi] */

/* ---- values (values.c): the reference's own dtype facts and decoding */

enum { FLOAT, SIGNED, UNSIGNED };

typedef struct {
    int kind, nan;
    double f;
    int64_t i;
    uint64_t u;
} value;

int valid_dtype(int dt);
size_t dtype_size(int dt); /* of a valid dtype */
const char *dtype_name(int dt);
int kind_of(int dt);
value read_value(int dt, const char *p);
int64_t read_index(int dt, const char *p);
int better(int is_min, const value *a, const value *b);
extern int rare_specials;
void random_element(int dt, char *p);

/* ---- layouts (layouts.c) */

/* A strided view in its own exactly-sized allocation (so that ASan and
   valgrind see any access outside it). */
typedef struct {
    int rank;
    int64_t shape[MAXR], strides[MAXR];
    unsigned char *alloc;
    char *data;
    size_t bytes;
} layout;

int64_t count_of(int rank, const int64_t *shape);
void make_layout(layout *L, size_t itemsize, int rank, const int64_t *shape, int broadcast);
int next_index(int rank, const int64_t *shape, int64_t *idx);
int64_t offset_of(int rank, const int64_t *strides, const int64_t *idx);
void fill_random(layout *L, int dt);
unsigned char *byteswapped_copy(const layout *L, int dt);

/* ---- the scalar reference (reference.c) */

void reference(const layout *in, int dt, const unsigned char *reduced, int is_min, int last,
               int nan_as_inf, int64_t *best_idx);
/* TopK: for each kept position (row-major), the k indices along `axis` in
   output order, from a sort of the row by value then index. */
void reference_topk(const layout *in, int dt, int axis, int64_t k, int largest, int sorted,
                    int64_t *idx);

/* ---- requests (requests.c, run_request.c) */

enum { OP_ARGMAX, OP_ARGMIN, OP_REDUCE_MAX, OP_REDUCE_MIN, OP_HARDMAX, OP_NANMAX, OP_NANMIN, OP_TOPK, OP_COUNT };

/* One request; any field may be invalid. */
typedef struct {
    int op, dtype, rank;
    int64_t shape[MAXR];
    int64_t axis;        /* argmax, argmin, hardmax, nanargmax, nanargmin */
    int all_axes;        /* nanargmax, nanargmin: axis NULL, every axis */
    int keepdims, last;  /* last: select_last_index or direction */
    int naxes;
    int64_t axes[MAXR];
    int version;         /* hardmax */
    int onto_zeros;      /* hardmax: argext_hardmax_onto_zeros on a zeroed output */
    int64_t k;           /* topk */
    int largest, sorted; /* topk */
    int out_dtype;       /* topk: the values' (the indices are int64) */
    int out_mutation;    /* 0 none, 1 grow a dimension, 2 drop the last dimension, 3 add one */
    int negative_dim;    /* -1, or the dimension given as -1 in the descriptor */
} request;

int is_nan_op(int op);
int is_keepdims_op(int op); /* ArgMax's output: int64, the reduced axes kept as 1 or removed */
int is_min_op(int op);
extern int hardmax_float_only;
int reduced_dims(const request *q, unsigned char *reduced);
int output_shape(const request *q, const unsigned char *reduced, int64_t *shape);
int expect_ok(const request *q, const unsigned char *reduced, int axes_ok);
void describe(const request *q);
void random_request(request *q, int op, int dtype, int rank, int64_t max_count);
void run_request(const request *q);

/* ---- the tests */

void test_entry_points(int cases_per_combo, int one_axis); /* entry_points.c */
void fuzz(long iterations);
void test_bad_descriptors(void); /* bad_descriptors.c */
void test_denormals_under_daz(void); /* denormals.c; nothing where it cannot flush */
void test_threads(int cases_per_combo); /* threads.c */

#endif /* ARGEXT_TEST_DRIVER_H */
