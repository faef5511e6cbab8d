/*
 * arena.c - per-thread scratch of the engine, and the thread's last error.
 *
 * The scratch is one heap block per thread, allocated on the thread's first
 * call and freed at thread exit (a POSIX thread-specific key or a Windows
 * fibre-local slot, whose destructors run then), so that a call needs no
 * more than a few KiB of the caller's stack and allocates nothing after the
 * first. Where neither exists, each call allocates and frees its own.
 */
#include <stdlib.h>

#include "engine/reduce.h"

#if defined(_WIN32)
#include <windows.h>
static DWORD slot = FLS_OUT_OF_INDEXES;
static INIT_ONCE slot_once = INIT_ONCE_STATIC_INIT;

static void NTAPI arena_free(void *a) { free(a); }

static BOOL CALLBACK make_slot(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    slot = FlsAlloc(arena_free);
    return TRUE;
}

argext_arena *argext_arena_acquire(void)
{
    InitOnceExecuteOnce(&slot_once, make_slot, NULL, NULL);
    if (slot == FLS_OUT_OF_INDEXES)
        return (argext_arena *)malloc(sizeof(argext_arena));
    argext_arena *a = (argext_arena *)FlsGetValue(slot);
    if (!a && (a = (argext_arena *)malloc(sizeof *a)) && !FlsSetValue(slot, a)) {
        free(a);
        return NULL;
    }
    return a;
}

void argext_arena_release(argext_arena *a)
{
    if (slot == FLS_OUT_OF_INDEXES)
        free(a);
}

#elif defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
static pthread_key_t key;
static int key_ok;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void make_key(void) { key_ok = pthread_key_create(&key, free) == 0; }

argext_arena *argext_arena_acquire(void)
{
    pthread_once(&key_once, make_key);
    if (!key_ok)
        return (argext_arena *)malloc(sizeof(argext_arena));
    argext_arena *a = (argext_arena *)pthread_getspecific(key);
    if (!a && (a = (argext_arena *)malloc(sizeof *a)) && pthread_setspecific(key, a) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

void argext_arena_release(argext_arena *a)
{
    if (!key_ok)
        free(a);
}

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
argext_arena *argext_arena_acquire(void) { return (argext_arena *)malloc(sizeof(argext_arena)); }
void argext_arena_release(argext_arena *a) { free(a); }
#endif
