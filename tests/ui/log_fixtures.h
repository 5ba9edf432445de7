#pragma once
// Fixtures for the log viewer tests: the shared corpus fragments made
// parseable, a generated GitHub Actions job log, and waiting for a viewer
// to finish opening.
#include "relayhud/logs/log_file.h"

#include "tests_fixtures.h" // PrintTo(QString) for readable failures

#include <QString>
#include <QTemporaryDir>

#include <optional>
#include <string>

namespace relayhud::ui {
class LogViewer;
}

namespace relayhud::ui::test {

// A fragment of shared/corpus/logs without its "#=SOURCE=#" line, its
// "#=MATCH=# " prefix and its ‹ › markers, and where the MATCH line is.
struct CorpusLog {
    std::string text;
    std::optional<std::uint64_t> matchLine; // 0-based, in `text`
};
CorpusLog corpusLog(const std::string& fileName);
std::string corpusDir();

// A pytest job as the runner logs it: timestamps, groups, ANSI colours (16,
// 256 and 24-bit), a warning, a tab, a FAILURES section with a traceback,
// the short summary, and the runner's final error. `passed` PASSED lines.
std::string ghaJobLog(int passed = 120);
// The failing test of ghaJobLog().
inline constexpr const char* kGhaFailedTest = "test/test_torch.py::TestTorch::test_sum_neg_dim";

// Writes `bytes` to `name` in `dir`; returns the path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes);

// Opens `path` and waits until it is indexed and its structure scanned.
bool openAndSettle(LogViewer& viewer, const QString& path, int timeoutMs = 20000);

// The decoded text of a line, read from the file (not through the view).
std::string decodedLine(const LogFile& log, std::uint64_t line);

} // namespace relayhud::ui::test
