/*
 * split.c - one reduction split over threads (threads.c runs the parts).
 *
 * Results do not depend on the split:
 * - many kept positions: each part takes a range of them (rows, or columns
 *   when the plan folds an outer axis; a column fold is never cut along its
 *   axis);
 * - few kept positions with long reductions: each one's reduced elements,
 *   row-major, are cut into pieces; each piece finds its best key and index,
 *   and the pieces are merged in index order by argext_plan_better (keys
 *   compare, NaN's key is the largest; equal keys go to the lower index for
 *   the first occurrence, the higher for the last), which is exactly the
 *   sequential scan's answer.
 */
#include <string.h>

#include "engine/reduce.h"
#include "runtime/threads.h"

/* Pieces per call: their results live on the caller's stack (16 bytes each; a call
   keeps within 16 KiB of stack). */
#define MAX_PIECES 64

typedef struct {
    int64_t key; /* 8-byte slot: the plan's key type */
    int64_t flat;
} piece_best;

typedef struct {
    const argext_plan *p;
    int64_t ranges;      /* kept ranges; 0 for pieces */
    int64_t pieces;      /* pieces per kept position */
    int64_t count;       /* reduced elements per kept position */
    piece_best *best;    /* one per piece task */
    unsigned char *done; /* one per task, set by the thread that ran it */
} split;

int64_t argext_part_start(int64_t n, int64_t parts, int64_t t)
{
    return n / parts * t + (t < n % parts ? t : n % parts);
}

static void run_part(const split *sp, int64_t t, argext_arena *s)
{
    const argext_plan *p = sp->p;
    if (sp->ranges) {
        argext_plan_run(p, argext_part_start(p->positions, sp->ranges, t),
                        argext_part_start(p->positions, sp->ranges, t + 1), s);
        return;
    }
    int64_t k = t / sp->pieces, c = t % sp->pieces;
    sp->best[t].flat = argext_plan_row_part(p, k, argext_part_start(sp->count, sp->pieces, c),
                                            argext_part_start(sp->count, sp->pieces, c + 1), 1,
                                            &sp->best[t].key);
}

/* A part on a thread without scratch (out of memory) is left to the caller. */
static void split_task(void *context, int64_t t)
{
    const split *sp = (const split *)context;
    argext_arena *s = argext_arena_acquire();
    if (!s)
        return;
    run_part(sp, t, s);
    sp->done[t] = 1;
    argext_arena_release(s);
}

void argext_plan_run_all(const argext_plan *p, argext_arena *s)
{
    int64_t count = p->axis.n;
    for (int j = 0; j < p->nr; j++)
        count *= p->along[j].n;
    int64_t bytes = p->positions > INT64_MAX / count ? INT64_MAX : p->positions * count;
    bytes = bytes > INT64_MAX / 8 ? INT64_MAX : bytes * (int64_t)p->itemsize;
    int parts = argext_parts_for(bytes);
    if (parts == 1) {
        argext_plan_run(p, 0, p->positions, s);
        return;
    }
    piece_best best[MAX_PIECES];
    unsigned char done[ARGEXT_MAX_THREADS > MAX_PIECES ? ARGEXT_MAX_THREADS : MAX_PIECES];
    split sp = {p, 0, 1, count, best, done};
    int64_t tasks, pieces = MAX_PIECES / p->positions;
    if (p->column_mode || p->positions >= 8 * (int64_t)parts || pieces < 2) {
        sp.ranges = tasks = p->positions < parts ? p->positions : parts;
    } else {
        sp.pieces = pieces < parts ? pieces : parts;
        sp.pieces = sp.pieces < count ? sp.pieces : count;
        tasks = p->positions * sp.pieces;
    }
    memset(done, 0, (size_t)tasks);
    argext_run_parallel(tasks, split_task, &sp);
    for (int64_t t = 0; t < tasks; t++)
        if (!done[t])
            run_part(&sp, t, s);
    if (sp.ranges)
        return;
    for (int64_t k = 0; k < p->positions; k++) {
        const piece_best *b = best + k * sp.pieces, *win = b;
        for (int64_t c = 1; c < sp.pieces; c++)
            if (argext_plan_better(p, &b[c].key, b[c].flat, &win->key, win->flat))
                win = &b[c];
        argext_iter outer;
        argext_iter_seek(&outer, p->nk, p->kept, k / p->inner.n);
        argext_store_index(p->out + outer.b + (k % p->inner.n) * p->inner.b, p->out_dtype,
                           p->flat0 + win->flat);
    }
}
