/*
 * lane.h - the template's code of one lane width (for_each_lane.h), in the
 * order each part needs the ones before it.
 */
#include "kernels/simd/derived.h"   /* primitives built from the ISA's */
#include "kernels/simd/keys.h"      /* lanes as keys; block maxima */
#include "kernels/simd/row_block.h" /* a block into the running best */
#ifdef FLANE
#include "kernels/simd/row_floats.h" /* float32/float64 chunks by float compares */
#endif
#if ISA_FILTER_SCAN && W >= 4
#include "kernels/simd/row_filter.h" /* integer blocks tested against the best */
#endif
#include "kernels/simd/row_scan.h" /* one contiguous row */
#include "kernels/simd/row_short.h" /* rows shorter than a vector */
#include "kernels/simd/transpose.h"  /* rows into a tile of columns; squares of rows */
#include "kernels/simd/rows_dense.h" /* many short rows back to back */
#include "kernels/simd/rows_mid.h"   /* rows of a few vectors */
#include "kernels/simd/cols_fold.h"  /* contiguous columns over rows */
#include "kernels/simd/entries.h"    /* the kernel shapes of abi.h */
#include "kernels/simd/cols_narrow.h" /* fewer columns than a vector, rows back to back */
#include "kernels/simd/topk_scan.h"  /* TopK's threshold scan */
#include "kernels/simd/topk_cols.h"  /* TopK's columns */
