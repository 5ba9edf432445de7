#include "sync/run_artifacts.h"

#include "relayhud/model/tested_commit.h"
#include "relayhud/results/report_import.h"
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/test_result_store.h"
#include "sync/cancel.h"

#include <cstdlib>
#include <filesystem>

namespace relayhud::sync {
namespace {

namespace fs = std::filesystem;

std::string safeName(const std::string& name)
{
    std::string out = fs::path(name).filename().string();
    if (out.empty() || out == "." || out == "..")
        out = "artifact";
    return out;
}

// Blobs are named by their hash, and importReports goes by file names
// (.zip, .xml.gz): each blob is linked under its own name into a private
// folder for the import, which goes away with this object.
class StagedFiles {
public:
    StagedFiles() = default;
    StagedFiles(StagedFiles&& other) noexcept
        : m_folder(std::exchange(other.m_folder, {})), m_paths(std::move(other.m_paths))
    {
    }
    StagedFiles& operator=(StagedFiles&&) = delete;
    ~StagedFiles()
    {
        std::error_code ignored;
        if (!m_folder.empty())
            fs::remove_all(m_folder, ignored);
    }

    static Result<StagedFiles> stage(const std::vector<FetchedFile>& files,
                                     const std::string& tempDir);
    const std::vector<std::string>& paths() const { return m_paths; }
    // A message without the private folder's path in it.
    std::string withoutFolder(std::string text) const
    {
        const std::string prefix = m_folder + "/";
        for (auto at = text.find(prefix); !m_folder.empty() && at != std::string::npos;
             at = text.find(prefix, at))
            text.erase(at, prefix.size());
        return text;
    }

private:
    Result<void> link(const FetchedFile& file, std::size_t index);

    std::string m_folder;
    std::vector<std::string> m_paths;
};

Result<StagedFiles> StagedFiles::stage(const std::vector<FetchedFile>& files,
                                       const std::string& tempDir)
{
    StagedFiles staged;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].hash.empty()) { // a local file: it has its own name
            staged.m_paths.push_back(files[i].path);
            continue;
        }
        if (staged.m_folder.empty()) {
            std::string pattern = tempDir + "/import-XXXXXX";
            if (!::mkdtemp(pattern.data()))
                return makeError("could not make a folder in " + tempDir + " for the import");
            staged.m_folder = pattern;
        }
        if (auto linked = staged.link(files[i], i); !linked)
            return linked.error();
    }
    return staged;
}

Result<void> StagedFiles::link(const FetchedFile& file, std::size_t index)
{
    fs::path target = fs::path(m_folder) / safeName(file.name);
    if (fs::exists(target)) // two artifacts of one name: keep both
        target = fs::path(m_folder) / (std::to_string(index) + "-" + safeName(file.name));
    std::error_code error;
    fs::create_hard_link(file.path, target, error);
    if (error) {
        error.clear();
        fs::create_symlink(file.path, target, error); // importReports follows a named link
    }
    if (error)
        return makeError("could not prepare " + file.name + " for import: " + error.message());
    m_paths.push_back(target.string());
    return {};
}

Result<StoredRun> record(Database& cache, const TestRunOrigin& origin, TestRunState state,
                         const std::string& message, bool problem)
{
    auto id = TestResultStore(cache).recordTestRunState(origin, state, message);
    if (!id)
        return id.error();
    StoredRun stored;
    stored.recorded = true;
    stored.testRunId = *id;
    stored.state = state;
    stored.message = message;
    stored.problem = problem;
    return stored;
}

// How this run's last fetch ended, if it broke off too: then what breaks off
// again may be the file as the store has it, and is kept as read. A partial
// run is asked again after the retry interval (TestResultStore::artifactQueue), so a
// later whole download replaces it.
enum class LastFetch { Other, BrokeOff, KeptPartial };

LastFetch lastFetch(const Database& cache, const TestRunOrigin& origin)
{
    if (!origin.checkRunRow)
        return LastFetch::Other;
    auto last = TestResultStore(cache).testRunForCheckRun(*origin.checkRunRow);
    if (!last || !*last)
        return LastFetch::Other;
    const TestRunInfo& run = **last;
    if (run.state == TestRunState::Failed && run.message.starts_with(kBrokeOffMessage))
        return LastFetch::BrokeOff;
    if (run.state == TestRunState::Stored && partialWarning(run))
        return LastFetch::KeptPartial;
    return LastFetch::Other;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
        out += (i ? ", " : "") + names[i];
    if (names.size() > 3)
        out += " and " + std::to_string(names.size() - 3) + " more";
    return out;
}

// The blobs of the fetched files that broke off (an import name is the
// staged file's name, then ":" and the entry's path inside it): removed, so
// that the next fetch downloads them again instead of reusing the cut bytes.
void dropBrokenBlobs(const ContentCache& blobs, const ArtifactFetch& fetch,
                     const StagedFiles& staged, const std::vector<std::string>& brokeOff)
{
    const std::vector<std::string>& paths = staged.paths();
    for (std::size_t i = 0; i < fetch.files.size() && i < paths.size(); ++i) {
        const std::string staging = fs::path(paths[i]).filename().string();
        for (const std::string& name : brokeOff)
            if (name.substr(0, name.find(':')) == staging && !fetch.files[i].hash.empty())
                blobs.remove(fetch.files[i].hash);
    }
}

Result<StoredRun> importFetched(Database& cache, ContentCache& blobs, const FetchedRun& run,
                                const ArtifactFetch& fetch, const std::atomic<bool>* cancel)
{
    auto staged = StagedFiles::stage(fetch.files, blobs.tempDir());
    if (!staged)
        return record(cache, run.origin, TestRunState::Failed, staged.message(), true);
    auto writer = TestResultStore(cache).beginTestRun(run.origin, &blobs);
    if (!writer)
        return writer.error();
    ImportOptions options;
    options.cancel = cancel;
    std::vector<std::string> brokeOff;
    options.brokeOff = &brokeOff;
    auto summary = importReports(staged->paths(), **writer, options);
    if (!brokeOff.empty() && !cancelled(cancel)) {
        // Its blob goes either way: the next fetch asks for it whole.
        dropBrokenBlobs(blobs, fetch, *staged, brokeOff);
        const LastFetch last = lastFetch(cache, run.origin);
        if (!summary && last == LastFetch::KeptPartial) {
            writer->reset(); // what the last fetch kept stays; asked again later
            return StoredRun{};
        }
        // Nothing of a cut download is kept the first time, nor ever a break
        // that leaves nothing to read: a failed fetch, asked again.
        if (!summary || last == LastFetch::Other) {
            writer->reset();
            return record(cache, run.origin, TestRunState::Failed,
                          std::string(kBrokeOffMessage) + " (" + joined(brokeOff)
                              + "); asked again on the next pass",
                          true);
        }
        (*writer)->addWarning(std::string(kPartialWarning) + joined(brokeOff)
                              + " broke off on two downloads; kept what was read");
    }
    if (!summary) {
        writer->reset(); // rolls back before the state is written
        if (cancelled(cancel))
            return StoredRun{};
        return record(cache, run.origin, TestRunState::NoReports,
                      "no usable JUnit report: " + staged->withoutFolder(summary.message()), true);
    }
    for (const std::string& note : fetch.notes)
        (*writer)->addWarning(note);
    auto id = (*writer)->commit(summary->totals);
    if (!id)
        return id.error();
    StoredRun stored;
    stored.recorded = true;
    stored.testRunId = *id;
    stored.state = TestRunState::Stored;
    stored.cases = summary->totals.cases();
    return stored;
}

// A run without reports says what it did hold: "...; not downloaded:
// pytorch-wheel-<sha> (812 MiB, a wheel or other binary)".
std::string withNotes(const ArtifactFetch& fetch)
{
    std::string out = fetch.message;
    for (std::size_t i = 0; i < fetch.notes.size() && i < 4; ++i)
        out += "; " + fetch.notes[i];
    if (fetch.notes.size() > 4)
        out += "; and " + std::to_string(fetch.notes.size() - 4) + " more";
    return out;
}

} // namespace

bool isFinalState(TestRunState state)
{
    return state == TestRunState::Stored || state == TestRunState::NoReports
           || state == TestRunState::Expired;
}

FetchedRun fetchRunArtifacts(ArtifactFetcher& fetcher, const ArtifactSettings& settings,
                             const ArtifactCandidate& candidate, const std::atomic<bool>* cancel)
{
    FetchedRun run;
    run.candidate = candidate;
    run.origin.checkRunRow = candidate.checkRunRow;
    run.origin.source = TestRunSource::Artifacts;
    run.origin.label = "artifacts of run " + candidate.runId;
    // Without an artifact_url the run's own artifacts are its evidence:
    // torch-spyre and TorchedHat never send one (real-backends.md 1.4, 1.5, 7).
    const std::string& url =
        candidate.artifactUrl.empty() ? candidate.runUrl : candidate.artifactUrl;
    run.origin.location = url;
    auto location = locateArtifacts(url, settings);
    if (!location) {
        ArtifactFetch unreadable;
        unreadable.status = FetchStatus::Empty;
        unreadable.message = location.message();
        run.fetch = std::move(unreadable);
        run.unreadableUrl = true;
        return run;
    }
    // The HUD row knows the job (its check run id) and attempt; a workflow
    // run's artifacts cover all its jobs.
    if (!candidate.checkRunId.value.empty())
        location->jobId = candidate.checkRunId.value;
    if (candidate.runAttempt > 0)
        location->runAttempt = candidate.runAttempt;
    location->startedAt = candidate.startedAt;
    run.fetch = fetcher.fetch(*location, cancel);
    return run;
}

namespace {

// torch-spyre names its artifacts after the commit it built
// (`pytorch-wheel-<sha>`, `upstream-beta-reports-<sha>`; real-backends.md
// 3.5): the listing says what a merged-PR run really tested, whatever its
// HUD row's PR head. Names that disagree say nothing.
Result<void> keepTestedCommit(Database& cache, const FetchedRun& run)
{
    if (!run.fetch || run.fetch->listedNames.empty() || !run.origin.checkRunRow)
        return {};
    auto tested = testedCommitFromArtifactNames(run.fetch->listedNames);
    if (!tested || !*tested)
        return {};
    return CheckoutStore(cache).putTestedCommit(*run.origin.checkRunRow, **tested);
}

} // namespace

Result<StoredRun> storeRunArtifacts(Database& cache, ContentCache& blobs, const FetchedRun& run,
                                    const std::atomic<bool>* cancel)
{
    if (auto kept = keepTestedCommit(cache, run); !kept)
        return kept.error();
    if (!run.fetch) {
        if (cancelled(cancel))
            return StoredRun{};
        return record(cache, run.origin, TestRunState::Failed, run.fetch.message(), true);
    }
    const ArtifactFetch& fetch = *run.fetch;
    switch (fetch.status) {
    case FetchStatus::Fetched: return importFetched(cache, blobs, run, fetch, cancel);
    case FetchStatus::Expired:
        return record(cache, run.origin, TestRunState::Expired, withNotes(fetch), false);
    case FetchStatus::Unauthorized:
        return record(cache, run.origin, TestRunState::Unauthorized, fetch.message, true);
    case FetchStatus::Empty:
        return record(cache, run.origin, TestRunState::NoReports, withNotes(fetch),
                      run.unreadableUrl);
    }
    return makeError("unknown fetch status");
}

} // namespace relayhud::sync
