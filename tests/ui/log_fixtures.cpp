#include "log_fixtures.h"

#include "relayhud/logs/line_decoder.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_structure_watcher.h"
#include "relayhud/ui/logs/log_viewer.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <fstream>
#include <sstream>

namespace relayhud::ui::test {

namespace {

const std::string kMatch = "#=MATCH=# ";

void eraseAll(std::string& text, const std::string& what)
{
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at))
        text.erase(at, what.size());
}

std::string stamp(int t)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "2026-07-29T23:%02d:%02d.%07dZ ", 40 + t / 60 % 20, t % 60,
                  (t * 7919) % 10000000);
    return buffer;
}

} // namespace

std::string corpusDir() { return std::string(RELAYHUD_CORPUS_DIR) + "/logs"; }

CorpusLog corpusLog(const std::string& fileName)
{
    std::ifstream in(corpusDir() + "/" + fileName, std::ios::binary);
    CorpusLog log;
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        if (line.rfind("#=SOURCE=#", 0) == 0)
            continue;
        if (line.rfind(kMatch, 0) == 0) {
            line.erase(0, kMatch.size());
            log.matchLine = number;
        }
        eraseAll(line, "\u2039");
        eraseAll(line, "\u203a");
        log.text += line + "\n";
        ++number;
    }
    return log;
}

std::string ghaJobLog(int passed)
{
    std::ostringstream out;
    int t = 0;
    const auto put = [&](const std::string& text) { out << stamp(t++) << text << "\n"; };
    put("##[group]Run actions/checkout@v4");
    put("with:");
    put("  repository: pytorch/pytorch");
    put("  fetch-depth: 1");
    put("##[endgroup]");
    put("##[group]Run python test/run_test.py --include test_torch --verbose");
    put("\x1b[36;1mpython test/run_test.py --include test_torch --verbose\x1b[0m");
    put("\x1b[1mRunning test_torch 1/1 ...\x1b[0m [2026-07-29 23:40:12.000000]");
    put("Env:\tPYTORCH_TEST_WITH_SLOW=1\tCUDA=12.4");
    for (int i = 0; i < passed; ++i) {
        const std::string name = "test_torch.py::TestTorch::test_op_" + std::to_string(i);
        if (i % 17 == 5)
            put(name + " \x1b[33mSKIPPED\x1b[0m [0.0012s] (not supported on this device) [ "
                + std::to_string(i * 100 / passed) + "%]");
        else
            put(name + " \x1b[32mPASSED\x1b[0m [0." + std::to_string(1000 + i * 37 % 9000) + "s] [ "
                + std::to_string(i * 100 / passed) + "%]");
    }
    put("##[warning]The 'set-output' command is deprecated and will be disabled soon.");
    put("\x1b[38;5;208mcolour 208\x1b[0m and \x1b[38;2;90;160;255mrgb blue\x1b[0m "
        "and \x1b[4munderlined\x1b[0m and \x1b[7minverse\x1b[0m");
    put("=================================== FAILURES ===================================");
    put("___________________________ TestTorch.test_sum_neg_dim ___________________________");
    put("Traceback (most recent call last):");
    put("  File \"/opt/pytorch/test/test_torch.py\", line 1234, in test_sum_neg_dim");
    put("    self.assertEqual(x.sum(-1), expected)");
    put("AssertionError: Tensor-likes are not close!");
    put("");
    put("Mismatched elements: 3 / 64 (4.7%)");
    put("=========================== short test summary info ============================");
    put("\x1b[31mFAILED\x1b[0m test_torch.py::TestTorch::test_sum_neg_dim - AssertionError: "
        "Tensor-likes are not close!");
    put("\x1b[31m=================== 1 failed, " + std::to_string(passed)
        + " passed in 12.34s ===================\x1b[0m");
    put("##[endgroup]");
    put("##[error]Process completed with exit code 1.");
    return out.str();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes.data(), static_cast<qint64>(bytes.size()));
    return path;
}

bool openAndSettle(LogViewer& viewer, const QString& path, int timeoutMs)
{
    QSignalSpy opened(&viewer, &LogViewer::opened);
    viewer.openFile(path);
    if (!QTest::qWaitFor([&] { return opened.count() > 0; }, timeoutMs))
        return false;
    if (!opened.front().at(0).toBool())
        return false;
    return QTest::qWaitFor(
        [&] {
            return viewer.document()->progress().finished
                   && viewer.structureWatcher()->isFinished();
        },
        timeoutMs);
}

std::string decodedLine(const LogFile& log, std::uint64_t line)
{
    auto read = log.line(LineNumber{line});
    return read ? decodeLine(read->bytes).text : std::string("<") + read.message() + ">";
}

} // namespace relayhud::ui::test
