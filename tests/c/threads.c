/*
 * threads.c - the checks again with 1, 2, 3 and 7 threads and a part size so
 * small that every call splits (rows, columns, pieces of one row; main sets
 * ARGEXT_MIN_PART_BYTES), on argext's pool and on host parallel-fors (one
 * running the parts in reverse order, one starting a thread per part), and
 * from several threads at once.
 */
#include <math.h>
#include <stdlib.h>

#include <pthread.h>

#include "driver.h"

/* A host parallel-for that runs the parts on the calling thread, last first:
   no result may depend on the order the parts run in. */
static void reverse_for(void *host, int64_t n, argext_task task, void *context)
{
    (void)host;
    for (int64_t i = n; i-- > 0;)
        task(context, i);
}

typedef struct {
    argext_task task;
    void *context;
    int64_t i;
} host_part;

static void *run_host_part(void *arg)
{
    host_part *h = (host_part *)arg;
    h->task(h->context, h->i);
    return NULL;
}

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;

/* A host parallel-for that starts one thread per part and counts its calls. */
static void spawn_for(void *host, int64_t n, argext_task task, void *context)
{
    host_part *parts = malloc(sizeof(host_part) * (size_t)n);
    pthread_t *threads = malloc(sizeof(pthread_t) * (size_t)n);
    pthread_mutex_lock(&host_lock);
    ++*(long *)host;
    pthread_mutex_unlock(&host_lock);
    for (int64_t i = 0; i < n; i++) {
        parts[i] = (host_part){task, context, i};
        if (pthread_create(&threads[i], NULL, run_host_part, &parts[i]) != 0)
            abort();
    }
    for (int64_t i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    free(parts);
    free(threads);
}

enum { CALLERS = 4, CALLER_ROUNDS = 25, CALLER_N = 40000 };
static float caller_data[CALLER_N];
static int64_t caller_expected[2];

static void *caller(void *arg)
{
    long *wrong = (long *)arg;
    const int64_t shape[1] = {CALLER_N};
    argext_tensor in = {caller_data, ARGEXT_FLOAT32, 1, shape, NULL};
    for (int r = 0; r < CALLER_ROUNDS; r++) {
        int64_t got = -1;
        argext_tensor out = {&got, ARGEXT_INT64, 0, NULL, NULL};
        int last = r & 1;
        if (argext_argmax(&in, &out, 0, 0, last) != ARGEXT_OK || got != caller_expected[last])
            ++*wrong;
    }
    return NULL;
}

/* Several threads calling at once: one owns the pool, the others run their
   parts themselves; every answer is right. */
static void test_concurrent_callers(void)
{
    for (int i = 0; i < CALLER_N; i++)
        caller_data[i] = (float)(i % 1000);
    caller_data[CALLER_N / 3] = caller_data[CALLER_N - 5] = NAN;
    caller_expected[0] = CALLER_N / 3;
    caller_expected[1] = CALLER_N - 5;
    pthread_t threads[CALLERS];
    long wrong[CALLERS] = {0};
    for (int t = 0; t < CALLERS; t++)
        if (pthread_create(&threads[t], NULL, caller, &wrong[t]) != 0)
            abort();
    for (int t = 0; t < CALLERS; t++) {
        pthread_join(threads[t], NULL);
        snprintf(where, sizeof where, "concurrent caller %d, %d threads", t, argext_get_num_threads());
        CHECK(wrong[t] == 0, "%ld wrong answers", wrong[t]);
    }
}

void test_threads(int cases_per_combo)
{
    static const int counts[] = {1, 2, 3, 7};
    snprintf(where, sizeof where, "thread count");
    expect_status("set_num_threads(-1)", argext_set_num_threads(-1), ARGEXT_ERR_ATTRIBUTE);
    expect_status("set_num_threads(MAX + 1)", argext_set_num_threads(ARGEXT_MAX_THREADS + 1),
                  ARGEXT_ERR_ATTRIBUTE);
    CHECK(argext_set_num_threads(0) == ARGEXT_OK && argext_get_num_threads() >= 1,
          "default thread count %d", argext_get_num_threads());
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        CHECK(argext_set_num_threads(counts[c]) == ARGEXT_OK &&
                  argext_get_num_threads() == counts[c],
              "set_num_threads(%d)", counts[c]);
        test_entry_points(cases_per_combo, 1);
        test_concurrent_callers();
    }
    argext_set_parallel_for(reverse_for, NULL);
    test_entry_points(cases_per_combo, 1);
    long host_calls = 0;
    argext_set_parallel_for(spawn_for, &host_calls);
    test_entry_points(cases_per_combo, 1);
    test_concurrent_callers();
    snprintf(where, sizeof where, "host parallel-for");
    CHECK(host_calls > 0, "the host's parallel-for was never called");
    argext_set_parallel_for(NULL, NULL);
    CHECK(argext_set_num_threads(0) == ARGEXT_OK, "set_num_threads(0)");
}
