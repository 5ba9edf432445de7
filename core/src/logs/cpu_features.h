#pragma once
// What this CPU can run, asked once per process (GCC's and clang's
// __builtin_cpu_supports), for the vector paths of the line scan and search.
namespace relayhud::logs {

#if defined(__x86_64__)
inline const bool kHaveAvx2 = __builtin_cpu_supports("avx2");
#endif

} // namespace relayhud::logs
