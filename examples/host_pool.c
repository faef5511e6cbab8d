/*
 * host_pool.c - argext on the application's own thread pool.
 *
 * An application that has a pool of worker threads gives argext its
 * parallel-for with argext_set_parallel_for: argext then starts no thread of
 * its own, and splits each large call into at most argext_get_num_threads()
 * parts that the application's workers run.
 *
 *   cc -pthread host_pool.c $(pkg-config --cflags --libs argext) -o host_pool
 *   ./host_pool scores.f32 ROWS COLS    # raw native float32, row-major
 *
 * Prints the row argmax, the column argmin (last occurrence), the argmax of
 * the whole matrix, and how many parts the application's pool ran.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <argext.h>

/* A minimal pool: WORKERS threads wait for a job, take its parts one by one,
   and the thread that posted the job helps and waits for the last part. */
enum { WORKERS = 3 };

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    argext_task task;
    void *context;
    int64_t ntasks, next, unfinished;
    long parts_run; /* parts run by this pool, for the printout */
    int stop;
    pthread_t threads[WORKERS];
} pool;

/* Runs posted parts until none is left; lock held on entry and exit. */
static void take_parts(pool *p)
{
    while (p->next < p->ntasks) {
        int64_t i = p->next++;
        p->parts_run++;
        pthread_mutex_unlock(&p->lock);
        p->task(p->context, i);
        pthread_mutex_lock(&p->lock);
        if (--p->unfinished == 0)
            pthread_cond_broadcast(&p->done);
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        take_parts(p);
        if (!p->stop)
            pthread_cond_wait(&p->wake, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The argext_parallel_for the application hands to argext. One job at a
   time: a second caller waits for the first job to finish. */
static void pool_parallel_for(void *host, int64_t ntasks, argext_task task, void *context)
{
    pool *p = host;
    pthread_mutex_lock(&p->lock);
    while (p->unfinished > 0)
        pthread_cond_wait(&p->done, &p->lock);
    p->task = task;
    p->context = context;
    p->ntasks = ntasks;
    p->next = 0;
    p->unfinished = ntasks;
    pthread_cond_broadcast(&p->wake);
    take_parts(p);
    while (p->unfinished > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_cond_broadcast(&p->done); /* for a caller waiting its turn */
    pthread_mutex_unlock(&p->lock);
}

static void print_indices(const char *name, const int64_t *v, int64_t n)
{
    printf("%s", name);
    for (int64_t i = 0; i < n; i++)
        printf(" %lld", (long long)v[i]);
    printf("\n");
}

static int check(argext_status st, const char *what)
{
    if (st != ARGEXT_OK)
        fprintf(stderr, "%s: %s\n", what, argext_status_string(st));
    return st == ARGEXT_OK;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s scores.f32 ROWS COLS\n", argv[0]);
        return 2;
    }
    int64_t rows = atoll(argv[2]), cols = atoll(argv[3]);
    float *scores = malloc((size_t)(rows * cols) * sizeof(float));
    FILE *f = fopen(argv[1], "rb");
    if (rows < 1 || cols < 1 || !scores || !f ||
        fread(scores, sizeof(float), (size_t)(rows * cols), f) != (size_t)(rows * cols)) {
        fprintf(stderr, "cannot read %lld x %lld float32 values from %s\n", (long long)rows,
                (long long)cols, argv[1]);
        return 2;
    }
    fclose(f);

    static pool p; /* zeroed: no job, not stopping */
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.wake, NULL);
    pthread_cond_init(&p.done, NULL);
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&p.threads[i], NULL, worker, &p);
    argext_set_parallel_for(pool_parallel_for, &p);
    argext_set_num_threads(WORKERS + 1); /* the workers and the calling thread */

    int64_t shape[2] = {rows, cols}, all_shape[2] = {1, 1}, all_axes[2] = {0, 1}, best_cell;
    int64_t *row_best = malloc((size_t)rows * sizeof(int64_t));
    int64_t *col_worst = malloc((size_t)cols * sizeof(int64_t));
    argext_tensor in = {scores, ARGEXT_FLOAT32, 2, shape, NULL};
    argext_tensor by_row = {row_best, ARGEXT_INT64, 1, &shape[0], NULL};
    argext_tensor by_col = {col_worst, ARGEXT_INT64, 1, &shape[1], NULL};
    argext_tensor cell = {&best_cell, ARGEXT_INT64, 2, all_shape, NULL};
    int ok = check(argext_argmax(&in, &by_row, 1, 0, 0), "argmax") &&
             check(argext_argmin(&in, &by_col, 0, 0, 1), "argmin") &&
             check(argext_reduce_argmax(&in, &cell, all_axes, 2, ARGEXT_FIRST), "reduce_argmax");

    argext_set_parallel_for(NULL, NULL); /* argext's own pool again, for any later call */
    pthread_mutex_lock(&p.lock);
    p.stop = 1;
    pthread_cond_broadcast(&p.wake);
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(p.threads[i], NULL);
    if (!ok)
        return 1;
    print_indices("row_argmax", row_best, rows);
    print_indices("col_argmin_last", col_worst, cols);
    print_indices("all_argmax", &best_cell, 1);
    printf("host_parts %ld\n", p.parts_run);
    free(scores);
    free(row_best);
    free(col_worst);
    return 0;
}
