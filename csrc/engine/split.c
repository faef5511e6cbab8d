/*
 * split.c - the engine's entry point: one reduction planned, then run on the
 * calling thread or split over threads (runtime/threads.h runs the parts).
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

#include "engine/plan.h"
#include "runtime/scratch.h"
#include "runtime/threads.h"

/* Pieces per call: their results live on the caller's stack (16 bytes each; a call
   keeps within 16 KiB of stack). */
#define MAX_PIECES 64

typedef struct {
    int64_t key; /* 8-byte slot: the plan's key type */
    int64_t index;
} piece_result;

typedef struct {
    const argext_plan *p;
    int64_t ranges;        /* kept ranges; 0 for pieces */
    int64_t pieces;        /* pieces per kept position */
    piece_result *results; /* one per piece task */
    unsigned char *done;   /* one per task, set by the thread that ran it */
    unsigned char *nan;    /* one per task: argext_plan_run's NaN answer for its range */
} split;

static argext_engine_scratch *scratch_acquire(void)
{
    return (argext_engine_scratch *)argext_scratch_acquire(sizeof(argext_engine_scratch));
}

static void run_part(const split *sp, int64_t t, argext_engine_scratch *s)
{
    const argext_plan *p = sp->p;
    if (sp->ranges) {
        sp->nan[t] = (unsigned char)argext_plan_run(p, argext_part_start(p->positions, sp->ranges, t),
                                                    argext_part_start(p->positions, sp->ranges, t + 1), s);
        return;
    }
    int64_t k = t / sp->pieces, c = t % sp->pieces;
    sp->results[t].index = argext_plan_row_part(
        p, k, argext_part_start(p->count, sp->pieces, c),
        argext_part_start(p->count, sp->pieces, c + 1), 1, &sp->results[t].key);
}

/* A part on a thread without scratch (out of memory) is left to the caller. */
static void split_task(void *context, int64_t t)
{
    const split *sp = (const split *)context;
    argext_engine_scratch *s = scratch_acquire();
    if (!s)
        return;
    run_part(sp, t, s);
    sp->done[t] = 1;
    argext_scratch_release(s);
}

/* The plan over `parts` threads (parts > 1), s being the caller's scratch;
   returns argext_plan_run's NaN answer for every position (1 for pieces,
   whose elements are not tested). */
static int run_split(const argext_plan *p, int parts, argext_engine_scratch *s)
{
    piece_result results[MAX_PIECES];
    unsigned char done[ARGEXT_MAX_THREADS > MAX_PIECES ? ARGEXT_MAX_THREADS : MAX_PIECES];
    unsigned char nan[ARGEXT_MAX_THREADS > MAX_PIECES ? ARGEXT_MAX_THREADS : MAX_PIECES];
    split sp = {p, 0, 1, results, done, nan};
    int64_t tasks, pieces = MAX_PIECES / p->positions;
    if (p->column_mode || p->positions >= 8 * (int64_t)parts || pieces < 2) {
        sp.ranges = tasks = p->positions < parts ? p->positions : parts;
    } else {
        sp.pieces = pieces < parts ? pieces : parts;
        sp.pieces = sp.pieces < p->count ? sp.pieces : p->count;
        tasks = p->positions * sp.pieces;
    }
    memset(done, 0, (size_t)tasks);
    argext_run_parallel(tasks, split_task, &sp);
    for (int64_t t = 0; t < tasks; t++)
        if (!done[t])
            run_part(&sp, t, s);
    if (sp.ranges) {
        int any = 0;
        for (int64_t t = 0; t < tasks; t++)
            any |= nan[t];
        return any;
    }
    for (int64_t k = 0; k < p->positions; k++) { /* each position's pieces, merged */
        const piece_result *r = results + k * sp.pieces, *win = r;
        for (int64_t c = 1; c < sp.pieces; c++)
            if (argext_plan_better(p, &r[c].key, r[c].index, &win->key, win->index))
                win = &r[c];
        argext_plan_store(p, k, win->index);
    }
    if (p->written)
        p->written(p->written_context, p, 0, p->positions);
    return p->nan_check;
}

argext_status argext_engine_reduce(const argext_reduction *r)
{
    argext_engine_scratch *s = scratch_acquire();
    if (!s)
        return ARGEXT_ERR_NOMEM;
    argext_plan *p = &s->plan;
    argext_plan_build(p, r);
    int64_t bytes = p->positions > INT64_MAX / p->count ? INT64_MAX : p->positions * p->count;
    bytes = bytes > INT64_MAX / 8 ? INT64_MAX : bytes * (int64_t)p->itemsize;
    int parts = argext_parts_for(bytes);
    int nan = parts == 1 ? argext_plan_run(p, 0, p->positions, s) : run_split(p, parts, s);
    if (r->nan_best)
        *r->nan_best = nan;
    argext_scratch_release(s);
    return ARGEXT_OK;
}
