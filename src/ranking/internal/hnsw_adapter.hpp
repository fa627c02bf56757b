#pragma once
// hnswlib (Debian's 0.6.2, header-only) as the library uses it: the one header that includes it.
//
// Its headers define non-inline functions and globals (cpuid, xgetbv, InnerProductSIMD16Ext, …):
// wrapped in a namespace of ours they cannot clash with a host's own include of hnswlib, or with
// a benchmark's, in one link. Every header they include comes first, so the namespace holds
// hnswlib alone. They are not written for our warning set; it is silenced for the include only.
// Include it from one translation unit (vector_index.cpp); a program that links the library and
// wants hnswlib's own build too (vector_bench's -march=native peer) defines QAPLAN_HNSW_NAMESPACE
// to another name first.
//
// hnswlib's SIMD distances are never used: the library gives it its own (ip_kernels.hpp), so the
// graph is bit-identical on every machine. Its USE_SSE prefetching stays on — searchBaseLayer
// prefetches the next candidate's vector while it scores this one, which native builds of hnswlib
// rely on — except under AddressSanitizer: to compute the address it reads `datal[j + 1]`, one
// entry past a full upper-layer link list, i.e. past the end of a small malloc'd block (a read
// that cannot fault on glibc's heap, where a chunk's size word follows it, but that ASan reports
// as a heap-buffer-overflow during addPoint).
#include <assert.h>
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <deque>
#include <fstream>
#include <iostream>
#include <list>
#include <mutex>
#include <queue>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MANUAL_VECTORIZATION
#endif
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wreorder"
#pragma GCC diagnostic ignored "-Wtype-limits"
#ifndef __clang__  // a g++-only warning (clang would warn that it does not know it)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#ifndef QAPLAN_HNSW_NAMESPACE
#define QAPLAN_HNSW_NAMESPACE qaplan_hnsw
#endif
namespace QAPLAN_HNSW_NAMESPACE {
#include <hnswlib/hnswlib.h>
}  // namespace QAPLAN_HNSW_NAMESPACE
#pragma GCC diagnostic pop

namespace hnswlib = QAPLAN_HNSW_NAMESPACE::hnswlib;
