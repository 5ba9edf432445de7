#pragma once
// What a failing, skipped or xfailed case says: messages and Python
// tracebacks in the shapes PyTorch's test framework and pytest print them,
// with the backend's own error texts. The JUnit writer and the job log use the
// same text, so the two tell one story.
#include "sim_test_catalog.h"

#include <string>

namespace relayhud::sim {

struct FailureText {
    std::string message;   // the <failure>/<error> message attribute
    std::string traceback; // the element text and the log's FAILURES entry
    std::string summary;   // the first line, for "short test summary info"
};

FailureText failureText(const TestUniverse& universe, const CaseRef& c, FailureKind kind);
std::string skipReason(const TestUniverse& universe, const CaseRef& c);
std::string xfailReason(const TestUniverse& universe, const CaseRef& c);

// Where the test file lives on the runner: "/__w/torch-spyre/torch-spyre/pytorch/test/test_ops.py".
std::string runnerPath(const TestFlavor& flavor, std::string_view file);
// The line of the case's method in its file (stable).
int methodLine(const CaseRef& c);

} // namespace relayhud::sim
