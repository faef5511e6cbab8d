/*
 * scratch.c - one block of scratch memory per thread.
 *
 * The block is allocated on the thread's first call and freed at thread exit
 * (a POSIX thread-specific key or a Windows fibre-local slot, whose
 * destructors run then), so that a call needs no more than a few KiB of the
 * caller's stack and allocates nothing after the first. Where neither
 * exists, each call allocates and frees its own.
 */
#include <stdlib.h>

#include "runtime/scratch.h"

/* A block starts with its size; the caller's part follows, aligned for any type. */
typedef union {
    size_t bytes;
    long double align_ld;
    void *align_p;
    long long align_ll;
} block_head;

/* The thread's slot: whether there is one, and its value (a block's head). */
static int slot_ready(void);
static void *slot_get(void);
static int slot_set(void *head); /* 1 when stored */

#if defined(_WIN32)
#include <windows.h>
static DWORD slot = FLS_OUT_OF_INDEXES;
static INIT_ONCE slot_once = INIT_ONCE_STATIC_INIT;

static void NTAPI block_free(void *head) { free(head); }

static BOOL CALLBACK make_slot(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    slot = FlsAlloc(block_free);
    return TRUE;
}

static int slot_ready(void)
{
    InitOnceExecuteOnce(&slot_once, make_slot, NULL, NULL);
    return slot != FLS_OUT_OF_INDEXES;
}
static void *slot_get(void) { return FlsGetValue(slot); }
static int slot_set(void *head) { return FlsSetValue(slot, head) != 0; }

#elif defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
static pthread_key_t key;
static int key_ok;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void make_key(void) { key_ok = pthread_key_create(&key, free) == 0; }

static int slot_ready(void)
{
    pthread_once(&key_once, make_key);
    return key_ok;
}
static void *slot_get(void) { return pthread_getspecific(key); }
static int slot_set(void *head) { return pthread_setspecific(key, head) == 0; }

#if defined(__GNUC__) || defined(__clang__)
/* Library unload: the key's destructor would point into unmapped code. The
   unloading thread's block is freed; other live threads' blocks are lost. */
__attribute__((destructor)) static void drop_key(void)
{
    if (key_ok) {
        free(pthread_getspecific(key));
        pthread_setspecific(key, NULL);
        pthread_key_delete(key);
        key_ok = 0;
    }
}
#endif

#else
static int slot_ready(void) { return 0; }
static void *slot_get(void) { return NULL; }
static int slot_set(void *head) { return (void)head, 0; }
#endif

/* A block of `bytes` for the caller (its head before it), or NULL. */
static void *new_block(size_t bytes)
{
    block_head *h = (block_head *)malloc(sizeof *h + bytes);
    if (!h)
        return NULL;
    h->bytes = bytes;
    return h + 1;
}

void *argext_scratch_acquire(size_t bytes)
{
    if (!slot_ready())
        return new_block(bytes);
    block_head *head = (block_head *)slot_get();
    if (head && head->bytes >= bytes)
        return head + 1;
    void *block = new_block(bytes);
    if (!block)
        return NULL;
    if (!slot_set((block_head *)block - 1)) {
        free((block_head *)block - 1);
        return NULL;
    }
    free(head); /* the smaller block it replaces */
    return block;
}

void argext_scratch_release(void *block)
{
    if (block && !slot_ready())
        free((block_head *)block - 1);
}
