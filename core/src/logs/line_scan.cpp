#include "logs/line_scan.h"
#include "logs/cpu_features.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace relayhud::logs {
namespace {

#if defined(__SSE2__)
__m128i load16(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// 0xFF in each lane whose byte ends a line, given the 16 bytes at p and at p + 1.
__m128i terminatorLanes(const char* p)
{
    const __m128i nl = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    const __m128i here = load16(p);
    const __m128i next = load16(p + 1);
    const __m128i loneCr = _mm_andnot_si128(_mm_cmpeq_epi8(next, nl), _mm_cmpeq_epi8(here, cr));
    return _mm_or_si128(_mm_cmpeq_epi8(here, nl), loneCr);
}

std::uint64_t horizontalSum(__m128i counts)
{
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums))
           + static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
}
#endif

} // namespace

namespace {

// Terminators by the full rule ('\n', or '\r' not followed by '\n').
std::uint64_t countExact(const char* begin, const char* end, int after)
{
    std::uint64_t total = 0;
    const char* p = begin;
#if defined(__SSE2__)
    // Each step also reads the 16 bytes at p + 1, so the vector loop stops
    // while 17 bytes remain; byte lanes hold at most 255 before summing.
    while (end - p >= 17) {
        __m128i lanes = _mm_setzero_si128();
        const std::ptrdiff_t steps = (end - p - 1) / 16;
        const std::ptrdiff_t rounds = steps < 255 ? steps : 255;
        for (std::ptrdiff_t r = 0; r < rounds; ++r, p += 16)
            lanes = _mm_sub_epi8(lanes, terminatorLanes(p));
        total += horizontalSum(lanes);
    }
#endif
    for (; p < end; ++p)
        total += isTerminatorAt(p, end, after) ? 1U : 0U;
    return total;
}

#if defined(__x86_64__)
// Logs rarely hold a '\r': count '\n' 64 bytes at a time and fall back to
// the exact rule only for stretches where a '\r' shows up. All intrinsics are
// inside this one function so it alone is compiled for AVX2.
__attribute__((target("avx2"))) std::uint64_t countAvx2(const char* begin, const char* end,
                                                        int after)
{
    std::uint64_t total = 0;
    const char* p = begin;
    const __m256i nl = _mm256_set1_epi8('\n');
    const __m256i cr = _mm256_set1_epi8('\r');
    // At most 127 steps of two adds keep every byte lane under 255; a byte
    // must follow each stretch (the exact rule looks one byte ahead).
    constexpr std::ptrdiff_t kStretch = 64 * 64;
    while (end - p > 64) {
        const std::ptrdiff_t whole = (end - p - 1) / 64 * 64;
        const char* stretchEnd = p + (whole < kStretch ? whole : kStretch);
        __m256i lanes = _mm256_setzero_si256();
        __m256i crs = _mm256_setzero_si256();
        for (const char* q = p; q < stretchEnd; q += 64) {
            const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
            const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32));
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(a, nl));
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(b, nl));
            crs = _mm256_or_si256(
                crs, _mm256_or_si256(_mm256_cmpeq_epi8(a, cr), _mm256_cmpeq_epi8(b, cr)));
        }
        if (_mm256_testz_si256(crs, crs)) {
            const __m256i sums = _mm256_sad_epu8(lanes, _mm256_setzero_si256());
            total += static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 0))
                     + static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 1))
                     + static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 2))
                     + static_cast<std::uint64_t>(_mm256_extract_epi64(sums, 3));
        } else {
            total += countExact(p, stretchEnd, static_cast<unsigned char>(*stretchEnd));
        }
        p = stretchEnd;
    }
    return total + countExact(p, end, after);
}

#endif

} // namespace

std::uint64_t countTerminators(const char* begin, const char* end, int after)
{
#if defined(__x86_64__)
    if (kHaveAvx2)
        return countAvx2(begin, end, after);
#endif
    return countExact(begin, end, after);
}

const char* findEither(const char* begin, const char* end, char a, char b)
{
    const char* p = begin;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a);
    const __m128i vb = _mm_set1_epi8(b);
    for (; end - p >= 16; p += 16) {
        const __m128i v = load16(p);
        const int mask =
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
        if (mask != 0)
            return p + __builtin_ctz(static_cast<unsigned>(mask));
    }
#endif
    for (; p < end; ++p)
        if (*p == a || *p == b)
            return p;
    return end;
}

const char* findLineBreak(const char* begin, const char* end)
{
    return findEither(begin, end, '\n', '\r');
}

const char* terminatorFrom(const char* p, const char* end, int after)
{
    const char* t = findLineBreak(p, end);
    if (t < end && *t == '\r' && byteAfter(t, end, after) == '\n')
        return t + 1; // may be `end` when the '\n' lies beyond the data
    return t;
}

const char* lineStartBefore(const char* begin, const char* p)
{
    // A '\r' directly before p ends the previous line unless p itself is the
    // '\n' of that "\r\n"; callers only pass positions inside a line's content.
    const char* q = p;
    while (q > begin && q[-1] != '\n' && q[-1] != '\r')
        --q;
    return q;
}

} // namespace relayhud::logs
