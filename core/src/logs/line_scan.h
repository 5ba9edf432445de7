#pragma once
// Byte-scanning kernels shared by the indexer, the search and the line reader.
//
// Lines end the way GitHub's own log viewer splits them: at "\n", at "\r\n"
// (one terminator, the '\n' is its position) and at a lone '\r'. Whether a
// '\r' is lone depends on the byte after it, so every kernel that decides
// terminators takes that byte (`after`, or kNoByte at the end of the data).
//
// The kernels use SSE2 (the x86-64 baseline, so no run-time dispatch) and fall
// back to plain loops elsewhere. Counting accumulates per-byte compare results
// and sums them with psadbw, which needs no POPCNT.
#include <cstddef>
#include <cstdint>

namespace relayhud::logs {

inline constexpr int kNoByte = -1;

inline int byteAfter(const char* p, const char* end, int after)
{
    return p + 1 < end ? static_cast<unsigned char>(p[1]) : after;
}

// Whether the byte at p ends a line.
inline bool isTerminatorAt(const char* p, const char* end, int after)
{
    return *p == '\n' || (*p == '\r' && byteAfter(p, end, after) != '\n');
}

// Terminators in [begin, end); `after` is the byte at `end` (kNoByte: none).
std::uint64_t countTerminators(const char* begin, const char* end, int after);

// The first '\n' or '\r' in [begin, end), or end. A '\r' found here may be
// the first half of "\r\n"; lineEndAt() says where that line's terminator is.
const char* findLineBreak(const char* begin, const char* end);

// The first byte equal to a or b in [begin, end), or end.
const char* findEither(const char* begin, const char* end, char a, char b);

// Where the line that contains p ends: its first terminator at or after p
// (for "\r\n" the '\n'), or end when there is none in the data.
const char* terminatorFrom(const char* p, const char* end, int after);

// The start of the line that contains p, looking back no further than begin
// (which must itself be a line start).
const char* lineStartBefore(const char* begin, const char* p);

} // namespace relayhud::logs
