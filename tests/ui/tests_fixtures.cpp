#include "tests_fixtures.h"

#include "relayhud/junit/junit_reader.h"

namespace relayhud::ui::test {

StoredTestResult result(std::int64_t testId, const std::string& file, const std::string& className,
                        const std::string& name, TestOutcome outcome, const std::string& marks,
                        const std::string& message)
{
    StoredTestResult r;
    r.testId = TestId{testId};
    r.file = file;
    r.className = className;
    r.name = name;
    r.identity = className.empty() ? file + "::" + name : file + "::" + className + "::" + name;
    r.baseName = className.empty() ? name : className + "::" + name;
    r.marks = marks;
    r.outcome = outcome;
    r.durationSeconds = 0.01 * static_cast<double>(testId % 100);
    r.message = message;
    return r;
}

TestHistory history(std::int64_t testId, const std::vector<std::optional<TestOutcome>>& outcomes)
{
    TestHistory h;
    h.testId = TestId{testId};
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        TestHistoryPoint point;
        std::string sha = "5ba" + std::to_string(1000 + i);
        sha.resize(40, 'e');
        point.sha = Sha{sha};
        point.commitTime = 1'777'000'000 + static_cast<EpochSeconds>(i) * 3600;
        point.checkRunRow = CheckRunRow{static_cast<std::int64_t>(100 + i)};
        point.outcome = outcomes[i];
        h.points.push_back(point);
    }
    return h;
}

namespace {

// The tag prefix the reader took off (the store keeps the raw tags).
const char* markPrefix(MarkKind kind)
{
    switch (kind) {
    case MarkKind::Op: return "op__";
    case MarkKind::Dtype: return "dtype__";
    case MarkKind::Module: return "module__";
    case MarkKind::Platform: return "platform__";
    case MarkKind::TestType: return "testtype__";
    case MarkKind::Model: return "model__";
    case MarkKind::Other: break;
    }
    return "";
}

} // namespace

std::vector<StoredTestResult> resultsFromJunit(const std::string& path)
{
    std::vector<StoredTestResult> results;
    auto report = readJunitFile(path);
    if (!report)
        return results;
    for (const TestCaseResult& c : report->cases) {
        StoredTestResult r;
        r.testId = TestId{static_cast<std::int64_t>(results.size()) + 1};
        r.identity = c.identity;
        r.file = c.file;
        r.className = c.className;
        r.name = c.name;
        r.baseName = c.baseName;
        for (const Mark& mark : c.marks.items)
            r.marks +=
                (r.marks.empty() ? "" : ",") + std::string(markPrefix(mark.kind)) + mark.value;
        r.outcome = c.outcome;
        r.durationSeconds = c.durationSeconds;
        r.retried = c.retried;
        r.message = c.message.text;
        results.push_back(std::move(r));
    }
    return results;
}

} // namespace relayhud::ui::test
