#pragma once
// The sync passes' one test of "was I asked to stop?": a null flag never is.
#include <atomic>

namespace relayhud::sync {

inline bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

} // namespace relayhud::sync
