#pragma once
// What a fuzz target asserts beyond "no crash, no sanitizer report": a
// property the code promises (a round trip, two readers agreeing). A broken
// one aborts with its words, so libFuzzer keeps the input as a crasher.
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, what)                                                                \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "fuzz property broken at %s:%d: %s\n", __FILE__, __LINE__, what); \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)
