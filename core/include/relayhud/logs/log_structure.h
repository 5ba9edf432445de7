#pragma once
// The structure of a log, found on worker threads while the view is already
// showing it: GitHub Actions groups (folding) and failure landmarks (the
// lines that explain why a job failed, to step through with n/p).
//
// Landmarks, one per line at most, in file order:
//  - TestFailed:  pytest's "FAILED path::Class::test - ..." (short test
//                 summary) and "ERROR path::test" lines; title = the test id.
//  - TestSection: "____ Class.test_name ____" (and "____ test_name ____")
//                 headers of pytest's FAILURES/ERRORS sections; title = the
//                 header's name.
//  - Exception:   the exception line that ends a Python traceback
//                 ("RuntimeError: ..."), when it follows the traceback's
//                 frames; firstLine = its "Traceback (most recent call
//                 last):" line when seen. Title = the exception line.
//  - ErrorMarker: "##[error]..." lines, except the generic closing words
//                 that never tell the cause: the runner's "Process completed
//                 with exit code N.", pytorch's runners' "[OSDC] Step script
//                 exited with code N..." and "Executing the custom container
//                 implementation failed...".
//  - Signal:      segfaults, fatal signals and kills ("Segmentation fault",
//                 "Fatal Python error", "Killed", "signal 11", SIGSEGV, SIGABRT,
//                 SIGKILL, SIGBUS, SIGILL, SIGFPE, "core dumped",
//                 KeyboardInterrupt).
//  - Timeout:     "Timeout", "timed out after", exit status 124 (timeout(1)).
//                 A Signal or Timeout right after one of its kind is the same
//                 event told twice: not another landmark.
//  - Summary:     pytest's "==== 3 failed, 10 passed in 1.2s ====".
//  - BuildError:  ninja's "FAILED: target", compiler "file:L:C: error: ...",
//                 "CMake Error".
//  - LintError:   lintrunner's "Error (LINTER) ..." reports.
// Candidates are found with one RE2 pass over the file (the same block
// search as log_search.h, Display text), then each candidate line is decoded
// and classified in file order.
#include "relayhud/logs/line_number.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

class LogFile;
namespace logs {
class StructureRun;
}

enum class LandmarkKind : std::uint8_t {
    TestFailed,
    TestSection,
    Exception,
    ErrorMarker,
    Signal,
    Timeout,
    Summary,
    BuildError,
    LintError,
};
std::string_view toString(LandmarkKind kind); // "test failed", "test section", ...

struct Landmark {
    LineNumber line;      // the line that explains; stepping lands here
    LineNumber firstLine; // where its block starts (a traceback's first line); else == line
    LandmarkKind kind = LandmarkKind::ErrorMarker;
    std::string title; // test id, exception text or message; valid UTF-8, at most 300 bytes
    bool operator==(const Landmark&) const = default;
};

struct LogGroup {
    LineNumber start; // the "##[group]" line
    LineNumber end;   // the "##[endgroup]" line, or the line before the next group / the last line
    std::string title;
    bool closed = false; // ended by "##[endgroup]"
    bool operator==(const LogGroup&) const = default;
};

struct StructureUpdate {
    std::span<const Landmark> newLandmarks; // in file order; valid during the call only
    std::size_t landmarkCount = 0;
    std::size_t groupCount = 0; // re-read groups() when it changes
    std::uint64_t scannedBytes = 0;
    std::uint64_t totalBytes = 0;
    bool finished = false;
    std::string error;
};

class LogStructure {
public:
    explicit LogStructure(std::shared_ptr<const LogFile> log, unsigned threads = 2);
    ~LogStructure(); // cancels and waits
    LogStructure(const LogStructure&) = delete;
    LogStructure& operator=(const LogStructure&) = delete;

    // Starts the scan (it follows the index while the log is being indexed);
    // updates come from a scan thread, in file order.
    using UpdateFn = std::function<void(const StructureUpdate&)>;
    void start(UpdateFn onUpdate = {});
    // Scans lines appended since the scan finished (tail mode), with the same
    // update function; landmarks and groups carry on from where they were
    // (an open group grows, the old last line is looked at again if it grew).
    // False while a scan runs or when there is nothing new.
    bool extend();
    void wait() const;
    bool finished() const;

    std::vector<Landmark> landmarks() const;
    std::vector<LogGroup> groups() const;
    // The first landmark after `from` / the last before it.
    std::optional<Landmark> nextLandmark(LineNumber from) const;
    std::optional<Landmark> previousLandmark(LineNumber from) const;
    // The group whose lines include `line`.
    std::optional<LogGroup> groupAt(LineNumber line) const;

    // Where a test's failure is told: its "____ Class.name ____" section
    // header (the last one when reruns wrote several), else its "FAILED ..."
    // line. `testIdentity` is a pytest node id
    // as the JUnit reader makes it ("test/test_x.py::TestX::test_y",
    // "test_x.py::test_z"); the file part may differ in its leading folders
    // from what pytest printed.
    std::optional<LineNumber> findTestFailure(std::string_view testIdentity) const;

private:
    std::shared_ptr<const LogFile> m_log;
    unsigned m_threads;
    std::unique_ptr<logs::StructureRun> m_run;
};

} // namespace relayhud
