#pragma once
// The matrix's verdict marks: for each self-reported green whose evidence
// was fetched, whether it is verified, unverified (incomplete or
// unverifiable) or disputed (verdict/verdict.h). Runs on the snapshot
// worker. Verdicts are remembered per run and recomputed only when the run's
// test results, the coverage settings or a config file change, so a sync
// that adds a few runs judges only those.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"
#include "relayhud/verdict/verdict.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace relayhud {
class Database;
}

namespace relayhud::ui {

class VerdictMarker {
public:
    // Forgets every remembered verdict, from the next mark() on. Never waits
    // for a mark() in progress (the GUI thread calls it).
    void setSources(verdict::VerdictSources sources);
    // Sets GreenVerified / GreenUnverified / GreenDisputed on the greens.
    Result<void> mark(const Database& cache, MatrixSnapshot& matrix);
    // Verdicts computed (not remembered) by the last mark(), for tests.
    std::size_t lastComputed() const;

private:
    struct Entry {
        TestRunId testRunId;
        EpochSeconds fetchedAt = 0;
        std::uint8_t flag = 0;
    };
    // Re-reads the config files whose size or time changed since last time;
    // true when any did (the memo is then stale).
    bool refreshConfigs();

    std::mutex m_pendingMutex; // guards m_pending only, held for a move
    std::optional<verdict::VerdictSources> m_pending;
    std::mutex m_mutex;                                // one mark() at a time; guards what follows
    verdict::VerdictSources m_sources;                 // with loadedConfigs kept current
    std::map<std::string, std::string> m_configStamps; // repo -> "mtime:size"
    std::unordered_map<CheckRunRow, Entry, IdHash> m_memo; // by check-run row
    std::atomic<std::size_t> m_lastComputed = 0;
};

// The mark's flag for a verdict (0 for verdicts of runs that are not green).
std::uint8_t verdictFlag(verdict::Verdict verdict);

} // namespace relayhud::ui
