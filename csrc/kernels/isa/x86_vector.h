/* The whole-vector primitives of the contract on an x86 vector (x86.h). */

VINLINE vec v_load(const char *p) { return X86_SI(loadu)((const void *)p); }
VINLINE void v_store(char *p, vec v) { X86_SI(storeu)((void *)p, v); }
/* A non-temporal store (movntdq) to a vector-aligned p; sfence orders them. */
VINLINE void v_stream(char *p, vec v) { X86_SI(stream)((void *)p, v); }
VINLINE void v_stream_fence(void) { _mm_sfence(); }
VINLINE vec v_and(vec a, vec b) { return X86_SI(and)(a, b); }
VINLINE vec v_or(vec a, vec b) { return X86_SI(or)(a, b); }
VINLINE vec v_xor(vec a, vec b) { return X86_SI(xor)(a, b); }
VINLINE uint64_t v_low64(vec v) { return (uint64_t)_mm_cvtsi128_si64(X86_LOW128(v)); }
