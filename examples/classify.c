/*
 * classify.c - argext from plain C: pick the winning class of each row of a
 * float32 score matrix, the best-scoring row of each class, the overall best
 * cell, and the one-hot (Hardmax) of each row.
 *
 *   cc classify.c $(pkg-config --cflags --libs argext) -o classify
 *   ./classify                        # built-in scores, checked against known answers
 *   ./classify scores.f32 ROWS COLS   # raw native float32, row-major
 *
 * Prints one line per result: a name, then the indices.
 */
#include <stdio.h>
#include <stdlib.h>

#include <argext.h>

static int check(argext_status st, const char *what)
{
    if (st != ARGEXT_OK)
        fprintf(stderr, "%s: %s\n", what, argext_status_string(st));
    return st == ARGEXT_OK;
}

static void print_indices(const char *name, const int64_t *v, int64_t n)
{
    printf("%s", name);
    for (int64_t i = 0; i < n; i++)
        printf(" %lld", (long long)v[i]);
    printf("\n");
}

/* Scores of 4 samples over 3 classes; sample 2 ties classes 0 and 2, class 1
   has its lowest score in samples 2 and 3. */
static float builtin[4 * 3] = {
    0.1f, 2.5f, -1.0f,
    3.0f, 0.2f, 0.7f,
    1.5f, -0.5f, 1.5f,
    -2.0f, -0.5f, 4.25f,
};
static const int64_t builtin_row_winner[4] = {1, 0, 0, 2};
static const int64_t builtin_col_argmin_last[3] = {3, 3, 0};

static float *read_scores(const char *path, int64_t count)
{
    FILE *f = fopen(path, "rb");
    float *v = malloc((size_t)count * sizeof(float));
    if (!f || !v || fread(v, sizeof(float), (size_t)count, f) != (size_t)count) {
        fprintf(stderr, "cannot read %lld float32 values from %s\n", (long long)count, path);
        exit(2);
    }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    int64_t rows = 4, cols = 3;
    float *scores = builtin;
    if (argc == 4) {
        rows = atoll(argv[2]);
        cols = atoll(argv[3]);
        if (rows < 1 || cols < 1)
            return 2;
        scores = read_scores(argv[1], rows * cols);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [scores.f32 ROWS COLS]\n", argv[0]);
        return 2;
    }
    printf("argext %s (%s kernels)\n", argext_version(), argext_isa_name(argext_get_isa()));

    int64_t shape[2] = {rows, cols};
    argext_tensor data = {scores, ARGEXT_FLOAT32, 2, shape, NULL};

    /* ArgMax along the classes, keepdims=0: one int64 per row. */
    int64_t *winner = malloc((size_t)rows * sizeof(int64_t));
    argext_tensor winner_t = {winner, ARGEXT_INT64, 1, &shape[0], NULL};
    if (!winner || !check(argext_argmax(&data, &winner_t, 1, 0, 0), "argmax"))
        return 1;
    print_indices("row_argmax", winner, rows);

    /* The same buffer seen transposed through byte strides (no copy):
       [cols, rows]; ArgMin along axis 1 with the last of tied minima. */
    int64_t t_shape[2] = {cols, rows};
    int64_t t_strides[2] = {(int64_t)sizeof(float), cols * (int64_t)sizeof(float)};
    argext_tensor transposed = {scores, ARGEXT_FLOAT32, 2, t_shape, t_strides};
    int64_t *loser = malloc((size_t)cols * sizeof(int64_t));
    int64_t loser_shape[2] = {cols, 1};
    argext_tensor loser_t = {loser, ARGEXT_INT64, 2, loser_shape, NULL};
    if (!loser || !check(argext_argmin(&transposed, &loser_t, 1, 1, 1), "argmin"))
        return 1;
    print_indices("col_argmin_last", loser, cols);

    /* Multi-axis: the flat index of the best cell, as uint32. */
    const int64_t both[2] = {1, 0};
    uint32_t cell;
    int64_t one_one[2] = {1, 1};
    argext_tensor cell_t = {&cell, ARGEXT_UINT32, 2, one_one, NULL};
    if (!check(argext_reduce_argmax(&data, &cell_t, both, 2, ARGEXT_LAST), "reduce_argmax"))
        return 1;
    int64_t cell64 = cell;
    print_indices("all_argmax_last", &cell64, 1);

    /* Hardmax-13 along the classes: the one-hot of each row's winner. */
    float *onehot = malloc((size_t)(rows * cols) * sizeof(float));
    argext_tensor onehot_t = {onehot, ARGEXT_FLOAT32, 2, shape, NULL};
    if (!onehot || !check(argext_hardmax(&data, &onehot_t, -1, 13), "hardmax"))
        return 1;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            if (onehot[r * cols + c] != (c == winner[r] ? 1.0f : 0.0f)) {
                fprintf(stderr, "hardmax row %lld disagrees with argmax\n", (long long)r);
                return 1;
            }
    printf("hardmax_matches_argmax\n");

    if (scores == builtin) {
        for (int r = 0; r < 4; r++)
            if (winner[r] != builtin_row_winner[r])
                return fprintf(stderr, "wrong winner for row %d\n", r), 1;
        for (int c = 0; c < 3; c++)
            if (loser[c] != builtin_col_argmin_last[c])
                return fprintf(stderr, "wrong argmin for class %d\n", c), 1;
        if (cell != 11)
            return fprintf(stderr, "wrong best cell %u\n", (unsigned)cell), 1;
        printf("builtin answers correct\n");
    } else {
        free(scores);
    }
    free(winner);
    free(loser);
    free(onehot);
    return 0;
}
