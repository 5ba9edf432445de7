#include "relayhud/ui/sync/verdict_marks.h"

#include "relayhud/store/test_result_store.h"

#include <filesystem>
#include <system_error>

namespace relayhud::ui {

namespace {

bool selfReportedGreen(const MatrixCell& cell)
{
    return !cell.empty() && cell.status == RunStatus::Completed
           && cell.conclusion == Conclusion::Success;
}

std::string fileStamp(const std::string& path)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        return "missing";
    const auto time = std::filesystem::last_write_time(path, error);
    if (error)
        return "missing";
    return std::to_string(time.time_since_epoch().count()) + ":" + std::to_string(size);
}

} // namespace

std::uint8_t verdictFlag(verdict::Verdict v)
{
    switch (v) {
    case verdict::Verdict::VerifiedGreen: return MatrixCell::GreenVerified;
    case verdict::Verdict::GreenDisputed: return MatrixCell::GreenDisputed;
    case verdict::Verdict::GreenIncomplete:
    case verdict::Verdict::GreenUnverifiable: return MatrixCell::GreenUnverified;
    default: return 0;
    }
}

void VerdictMarker::setSources(verdict::VerdictSources sources)
{
    const std::lock_guard lock(m_pendingMutex);
    m_pending = std::move(sources);
}

std::size_t VerdictMarker::lastComputed() const { return m_lastComputed; }

bool VerdictMarker::refreshConfigs()
{
    bool changed = false;
    for (const auto& [repo, path] : m_sources.configByRepo) {
        const std::string stamp = fileStamp(path);
        auto known = m_configStamps.find(repo);
        if (known != m_configStamps.end() && known->second == stamp)
            continue;
        m_configStamps[repo] = stamp;
        m_sources.loadedConfigs[repo] = verdict::loadRunConfig(path);
        changed = true;
    }
    return changed;
}

Result<void> VerdictMarker::mark(const Database& cache, MatrixSnapshot& matrix)
{
    // One load at a time: overlapping loads would judge the same runs twice.
    const std::lock_guard lock(m_mutex);
    {
        const std::lock_guard pending(m_pendingMutex);
        if (m_pending) {
            m_sources = std::move(*m_pending);
            m_pending.reset();
            m_sources.loadedConfigs.clear();
            m_configStamps.clear();
            m_memo.clear();
        }
    }
    if (refreshConfigs())
        m_memo.clear();
    // The greens' test runs in one query: a statement per cell cost more than
    // the rest of a cold start's first paint.
    std::vector<CheckRunRow> greens;
    for (const MatrixCell& cell : matrix.cells)
        if (selfReportedGreen(cell))
            greens.push_back(cell.runRowId);
    auto testRuns = TestResultStore(cache).testRunsForCheckRuns(greens);
    if (!testRuns)
        return testRuns.error();
    std::size_t computed = 0;
    for (MatrixCell& cell : matrix.cells) {
        if (!selfReportedGreen(cell))
            continue;
        const auto testRun = testRuns->find(cell.runRowId);
        if (testRun == testRuns->end())
            continue; // never fetched: nothing examined, no mark
        const TestRunInfo& info = testRun->second;
        if (info.state != TestRunState::Stored) {
            cell.flags |= MatrixCell::GreenUnverified; // expired, no reports, ...
            continue;
        }
        auto known = m_memo.find(cell.runRowId);
        if (known == m_memo.end() || known->second.testRunId != info.id
            || known->second.fetchedAt != info.fetchedAt) {
            auto judged = verdict::verdictForRun(cache, cell.runRowId, m_sources);
            if (!judged)
                return judged.error();
            ++computed;
            known = m_memo
                        .insert_or_assign(cell.runRowId, Entry{info.id, info.fetchedAt,
                                                               verdictFlag(judged->verdict)})
                        .first;
        }
        cell.flags |= known->second.flag;
    }
    m_lastComputed = computed;
    return {};
}

} // namespace relayhud::ui
