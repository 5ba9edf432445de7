#pragma once
// The local SQLite cache: everything RelayHUD shows comes from here, so the
// app works offline. One Cache per thread (SQLite connections are not shared);
// WAL mode lets a sync writer and GUI readers, or two app instances, coexist.
#include "relayhud/model/tested_commit.h"
#include "relayhud/model/types.h"
#include "relayhud/store/health_runs.h"      // the doctor's runtime health (doctor/)
#include "relayhud/store/job_failure_line.h" // triage evidence (triage/suggest.h)
#include "relayhud/store/job_timeline.h"     // attribution (triage/attribution.h)
#include "relayhud/store/matrix_snapshot.h"
#include "relayhud/store/recent_results.h" // config suggestions
#include "relayhud/store/team_changes.h"   // a team's triage server (team/)
#include "relayhud/store/test_results.h"
#include "relayhud/store/test_run_writer.h"
#include "relayhud/store/trend_runs.h" // trend charts (verdict/trends.h)
#include "relayhud/store/triage_tags.h"
#include "relayhud/store/write_batch.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace relayhud {
class ContentCache;
}

namespace relayhud {

// A conditional-request validator: the ETag of an answer and how many page
// units (PR numbers) it held, so an unchanged page still tells whether a next
// page exists.
struct HttpValidator {
    std::string etag;
    std::int64_t items = 0;
};

// One unit of sync work, applied in a single transaction: all of it or none.
// Validators travel with the rows they describe, so a failed batch never
// leaves an ETag behind that would hide its rows from the next sync.
struct SyncBatch {
    std::vector<Backend> backends;
    std::vector<UpstreamCommit> commits;
    std::vector<CheckRun> runs;
    std::vector<std::pair<std::string, HttpValidator>> validators; // by URL
};

struct CacheStats {
    std::int64_t backends = 0;
    std::int64_t commits = 0;
    std::int64_t checkRuns = 0;
    std::int64_t jobs = 0;
    std::int64_t testRuns = 0;
    std::int64_t testResults = 0;
};

// A finished run whose artifacts sync may fetch.
struct ArtifactCandidate {
    std::int64_t checkRunRow = 0;
    std::string downstreamRepo;
    std::string runId;
    int runAttempt = 1;
    CheckRunId checkRunId;
    std::string artifactUrl;
    std::string runUrl;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds commitTime = 0;
    EpochSeconds startedAt = 0; // the row's started_at; 0: not reported
};

// A check run's artifacts are asked for at most this many times when they
// hold no reports yet or broke off (Cache::artifactQueue): the first fetch
// and one at each of 5 min, 30 min, 2 h and 12 h after the run completed.
inline constexpr int kMaxArtifactAsks = 5;

struct ArtifactQueueQuery {
    bool failedOnly = false;            // only runs whose conclusion is not success
    EpochSeconds since = 0;             // commits at or after this time; 0: any
    EpochSeconds retryFailedBefore = 0; // also runs whose last fetch Failed or was refused
                                        // (Unauthorized) before this time
    std::int64_t limit = 200;
};

class Cache {
public:
    // Current schema version (PRAGMA user_version after migrations).
    static constexpr int kSchemaVersion = 10;

    // Opens or creates the cache file and migrates it to kSchemaVersion.
    // ":memory:" gives a private in-memory cache (tests).
    static Result<std::unique_ptr<Cache>> open(const std::string& path);
    ~Cache();
    Cache(const Cache&) = delete;
    Cache& operator=(const Cache&) = delete;

    int schemaVersion() const;
    const std::string& path() const { return m_path; }

    // Upserts everything in one transaction. A completed run is never
    // overwritten by an in_progress row of the same attempt.
    Result<void> apply(const SyncBatch& batch);

    Result<CacheStats> stats() const;
    Result<std::vector<Backend>> backends() const;
    Result<std::vector<UpstreamCommit>> commits() const;
    // Every attempt of every run for one upstream SHA, newest attempt first.
    Result<std::vector<CheckRun>> checkRunsForSha(const Sha& sha) const;
    // Every attempt of every run of one upstream PR on all its heads, the
    // newest head (by the commit's first activity) first; merge gating's facts.
    Result<std::vector<CheckRun>> checkRunsForPr(std::int64_t prNumber) const;
    // One run by the row id a MatrixCell carries.
    Result<CheckRun> checkRun(std::int64_t rowId) const;
    // All attempts of the run a cell shows (same SHA, backend, workflow, job).
    Result<std::vector<CheckRun>> attemptsOf(std::int64_t rowId) const;
    // The newest commit older than `sha` of the same history: the PR's
    // previous head, or for a nightly the previous nightly. None for another
    // event, and never another PR's head: a compare between two PRs' heads
    // means nothing (PR heads are no linear history).
    Result<std::optional<UpstreamCommit>> previousCommit(const Sha& sha) const;

    // PR numbers whose commits have no title yet (for /api/crcr/pr-info).
    Result<std::vector<std::int64_t>> prNumbersWithoutTitle(std::size_t limit) const;
    Result<void> applyPrInfo(const std::vector<PrInfo>& infos);
    // Nightly "SHAs" without a commit title, newest first (for commit-info).
    Result<std::vector<std::string>> nightlyShasWithoutTitle(std::size_t limit) const;
    // The levels the relay verified at dispatch (crcr_hud_results), by
    // check_run_id and attempt; runs not cached are ignored.
    Result<void> applyDispatchLevels(const std::vector<DispatchLevel>& levels);
    // The HUD's aggregate answers (crcr_summary, relay health, ...) verbatim,
    // one per (query, parameters), the newest replacing the older.
    struct HudAnswer {
        std::string body;
        EpochSeconds fetchedAt = 0;
    };
    Result<void> setHudAnswer(const std::string& query, const std::string& params,
                              const std::string& body, EpochSeconds fetchedAt);
    Result<std::optional<HudAnswer>> hudAnswer(const std::string& query,
                                               const std::string& params) const;

    // Builds the SHA x job matrix: newest attempt per cell by default.
    Result<MatrixSnapshot> loadMatrix(const MatrixQuery& query) const;

    // --- Test results (see store/test_results.h) ---
    // Groups the writes that follow into one transaction until the batch
    // commits (relayhud/store/write_batch.h), with a page cache of `cacheMiB`
    // meanwhile. The batch must not outlive this Cache.
    Result<std::unique_ptr<WriteBatch>> beginWriteBatch(int cacheMiB = 256);
    // Starts writing a test run; `fullTexts` keeps the whole of cut messages.
    Result<std::unique_ptr<TestRunWriter>> beginTestRun(const TestRunOrigin& origin,
                                                        ContentCache* fullTexts = nullptr);
    // Records a fetch that stored no results (expired, no reports, ...),
    // replacing an earlier test run of the same check run. Returns its id.
    Result<std::int64_t> recordTestRunState(const TestRunOrigin& origin, TestRunState state,
                                            const std::string& message);
    Result<std::optional<TestRunInfo>> testRunForCheckRun(std::int64_t checkRunRow) const;
    // The same for many rows in one query (the matrix's greens), by row;
    // rows without a test run are absent.
    Result<std::unordered_map<std::int64_t, TestRunInfo>>
    testRunsForCheckRuns(const std::vector<std::int64_t>& checkRunRows) const;
    // The row of the check run GitHub knows by `id` (the HUD's check_run_id),
    // newest first if a bad feed repeated it; none for an unknown or empty id.
    Result<std::optional<std::int64_t>> checkRunRowFor(const CheckRunId& id) const;
    Result<TestRunInfo> testRun(std::int64_t testRunId) const;
    // Test runs of one source, newest first (the imports list).
    Result<std::vector<TestRunInfo>> testRuns(TestRunSource source) const;
    Result<std::vector<StoredTestResult>> testResults(std::int64_t testRunId,
                                                      const TestResultFilter& filter = {}) const;
    Result<StoredText> testText(std::int64_t textId) const;
    // The history of each test over the last `maxShas` upstream SHAs (by
    // commit time, up to and including the SHA of `checkRunRow`) in runs of
    // the same job that have results. In the order of testIds.
    Result<std::vector<TestHistory>> testHistory(std::int64_t checkRunRow,
                                                 const std::vector<std::int64_t>& testIds,
                                                 int maxShas) const;
    // Finished runs with an artifact_url and no test run yet (or one whose
    // fetch failed, or whose reports broke off and were kept partial, before
    // query.retryFailedBefore), failed runs first, then newest commit first.
    Result<std::vector<ArtifactCandidate>> artifactQueue(const ArtifactQueueQuery& query) const;
    // How many runs the queue holds (query.limit aside).
    Result<std::int64_t> artifactQueueSize(const ArtifactQueueQuery& query) const;

    // --- Config suggestions (config/config_suggest.h) ---
    // The last query.runsPerJob runs with results of every job (one per
    // upstream SHA, its newest attempt with results), and the outcome of
    // every test in them; see store/recent_results.h.
    Result<RecentResults> recentResults(const RecentResultsQuery& query) const;
    // Every (file, base name) the cache has a result for: what config name
    // patterns are checked against.
    Result<std::vector<KnownTest>> knownTests() const;
    // --- end config suggestions ---

    // --- Triage tags (store/triage_tags.h) ---
    // Writes every tag (insert or replace by target) in one transaction and
    // returns what each target had before, in the order of `tags` (nullopt:
    // no row), which is what restoreTriageTags() needs to undo it. A target
    // given twice keeps the later tag; its second "before" is the first tag.
    Result<std::vector<std::optional<TriageTag>>> setTriageTags(const std::vector<TriageTag>& tags);
    // Undo: puts `previous[i]` back for `targets[i]`, or deletes the target's
    // row where it is nullopt. One transaction; the sizes must match.
    Result<void> restoreTriageTags(const std::vector<TriageTarget>& targets,
                                   const std::vector<std::optional<TriageTag>>& previous);
    // The stored tag of each target (nullopt: none), in order.
    Result<std::vector<std::optional<TriageTag>>>
    triageTagsFor(const std::vector<TriageTarget>& targets) const;
    // Every tag on one check run: its job's and its tests', job tag first,
    // then by test identity.
    Result<std::vector<TriageTag>> triageTagsForCheckRun(std::int64_t checkRunRow) const;
    // Tags on these upstream SHAs (empty: all), by SHA, repo, workflow, job,
    // attempt, test.
    Result<std::vector<TriageTag>> triageTags(const std::vector<Sha>& shas = {}) const;
    // Where a tag on this check run (and test, "" for the job) points.
    Result<TriageTarget> triageTargetOf(std::int64_t checkRunRow,
                                        const std::string& test = {}) const;
    // Per row, in order: its failing tests and how many carry a human class
    // (the matrix's "all triaged" mark). Two reads: the rows' test-run totals,
    // then the tags on their commits; an unknown row gives zeros.
    Result<std::vector<TriageProgress>>
    triageProgress(const std::vector<std::int64_t>& checkRunRows) const;
    // Failing test results of the runs in the window, newest commit first
    // (clustering's input; triage/cluster.h).
    Result<std::vector<FailureRecord>> failuresForClustering(const FailureQuery& query) const;

    // --- A team's shared triage (store/team_changes.h, team/team_sync.h) ---
    // Joins the team `teamId`, reached at `where`: from then on every tag
    // change (set, undo, import) also goes to the outbox, in its
    // transaction, and the tags already here are queued once so that the
    // team gets them. Joining another team starts over with it (its last
    // seen change 0, the outbox and field history of the old one dropped).
    // Returns how many changes were queued.
    Result<std::size_t> joinTeam(const std::string& teamId, const std::string& where);
    Result<TeamStatus> teamStatus() const;
    // Changes the server has not acknowledged, oldest first.
    Result<std::vector<TeamChange>> teamOutbox(std::size_t limit) const;
    // The server committed these: no longer unsent. Each is kept until a
    // pull brings it back, which tells this cache's changes from others'.
    Result<void> markTeamSent(const std::vector<std::string>& changeIds);
    // Applies pulled changes, in server order, to the tags, lists the
    // conflicts, and moves the last seen change to `lastSeq`: one
    // transaction, so a pull that dies half-way is read again whole. The
    // page's rows that were skipped (`skipped`) are counted in it too, once.
    Result<TeamApplyReport> applyTeamChanges(const std::vector<TeamChange>& changes,
                                             std::int64_t lastSeq, std::int64_t nowMs,
                                             const TeamSkips& skipped = {});
    // How the last sync went: its time when it worked, its error when not;
    // `forgedRows` (when >= 0) how many rows the server holds with a seq its
    // sequence never gave (a count of the server's, not added up).
    Result<void> setTeamSyncResult(std::int64_t whenMs, const std::string& where,
                                   const std::string& error, std::int64_t forgedRows = -1);
    // The conflicts listed, newest first.
    Result<std::vector<TeamConflict>> teamConflicts(std::size_t limit) const;
    // The last applied change of one field of one tag (who set it, when).
    Result<std::optional<TeamChange>> teamFieldChange(const TriageTarget& target,
                                                      TeamField field) const;

    // Conditional-request validators for HUD URLs (ETag), kept across runs.
    Result<std::optional<HttpValidator>> validator(const std::string& url) const;
    Result<std::vector<std::pair<std::string, HttpValidator>>> validators() const;
    Result<void> setValidator(const std::string& url, const HttpValidator& v);

    // Key/value metadata (last successful sync time, HUD URL the cache came from).
    Result<std::optional<std::string>> meta(const std::string& key) const;
    Result<void> setMeta(const std::string& key, const std::string& value);

    // --- Triage evidence (triage/suggest.h) ---
    // Replaces the failure line of one check run (store/job_failure_line.h).
    Result<void> putJobFailureLine(const JobFailureLine& line);
    Result<std::optional<JobFailureLine>> jobFailureLine(std::int64_t checkRunRow) const;
    // Finished runs that failed (failure, cancelled, timed out) and have a
    // check_run_id, whose line is missing, was picked by another rule set, or
    // whose fetch failed (or whose log broke off, JobLineCandidate) before
    // retryFailedBefore; newest commit first.
    Result<std::vector<JobLineCandidate>> jobLineQueue(const JobLineQueueQuery& query) const;
    // How many runs that queue holds (query.limit aside).
    Result<std::int64_t> jobLineQueueSize(const JobLineQueueQuery& query) const;
    // Runs triage looks at: failed, cancelled or timed out, or whose stored
    // results hold a failed, error or xpass-strict test; newest commit first.
    Result<std::vector<std::int64_t>> triageRunRows(const TriageRunQuery& query) const;
    // The other attempts of the same job on the same SHA that have stored
    // results, newest attempt first.
    Result<std::vector<std::int64_t>> otherAttemptRows(std::int64_t checkRunRow) const;
    // The outcome of each test (by id) in the stored results of one run, in
    // order; nullopt where the run has no result for it.
    Result<std::vector<std::optional<TestOutcome>>>
    testOutcomesIn(std::int64_t checkRunRow, const std::vector<std::int64_t>& testIds) const;
    // Other failed jobs (any backend) whose failure line is Infra and that
    // have no failed or error test: on the same SHA, or started within
    // `windowSeconds` of this run. Oldest start first.
    Result<std::vector<std::int64_t>> infraPeerRows(std::int64_t checkRunRow,
                                                    EpochSeconds windowSeconds) const;
    // The test_case id of a test identity (file::Class::name); none when no
    // stored result ever named it.
    Result<std::optional<std::int64_t>> testIdOf(const std::string& identity) const;
    // The job (job.id) a check run belongs to; 0 for an unknown row.
    Result<std::int64_t> jobOfRun(std::int64_t checkRunRow) const;
    // Every run of one job with its failing tests (store/job_timeline.h): two
    // reads, the second over the failing results only.
    Result<JobTimeline> jobTimeline(std::int64_t jobId) const;

    // --- Trend charts (store/trend_runs.h, verdict/trends.h) ---
    // The newest attempt of every job on every upstream SHA in the window,
    // oldest commit first, then by repository, workflow and job.
    Result<std::vector<TrendRun>> trendRuns(const TrendRunQuery& query) const;

    // --- The integration doctor's runtime health (store/health_runs.h) ---
    // Every attempt of every check run of one backend in the window, oldest
    // start first.
    Result<std::vector<HealthRun>> healthRuns(const HealthRunQuery& query) const;
    // Replaces what the job log of one check run says its checkouts checked
    // out (logs/checkout_scan.h); an empty list records a log that shows none.
    Result<void> putLogCheckouts(std::int64_t checkRunRow,
                                 const std::vector<LogCheckout>& checkouts, EpochSeconds scannedAt);
    // A log that could not be read (refused, cut before any checkout, a
    // server error): checkoutSampleQueue asks for it again after its retry
    // time; one that is gone (`gone`: expired or empty) never again.
    Result<void> putLogUnread(std::int64_t checkRunRow, EpochSeconds triedAt, bool gone = false);
    // nullopt when the run's log was never read.
    Result<std::optional<std::vector<LogCheckout>>> logCheckouts(std::int64_t checkRunRow) const;
    // Successful pull-request and push runs with a check_run_id whose log
    // was never read (or not since retryUnreadBefore), newest commit first,
    // at most perBackend of each backend: the greens whose tested SHA a sync
    // pass checks.
    Result<std::vector<JobLineCandidate>>
    checkoutSampleQueue(const CheckoutSampleQuery& query) const;

    // --- The commit a run really tested (model/tested_commit.h) ---
    // Records it for one check run, unless the run already has one from
    // stronger evidence (a lower TestedCommitSource: its log's checkout
    // beats a job name, which beats an artifact name). putLogCheckouts
    // records the one its checkouts show.
    Result<void> putTestedCommit(std::int64_t checkRunRow, const TestedCommit& tested);
    Result<std::optional<TestedCommit>> testedCommit(std::int64_t checkRunRow) const;
    // The same for many rows (the matrix's tooltips); rows without one are
    // absent.
    Result<std::unordered_map<std::int64_t, TestedCommit>>
    testedCommits(const std::vector<std::int64_t>& checkRunRows) const;
    // The newest earlier run of the same job (by its upstream commit's time)
    // that tested another commit of the same branch: a merged PR's build is
    // compared with main's previous tested commit, never with other PRs'
    // heads. None when the run has no tested commit.
    Result<std::optional<TestedCommit>> previousTestedCommit(std::int64_t checkRunRow) const;

private:
    explicit Cache(std::string path);
    Result<void> configure();
    Result<void> applyInTransaction(const SyncBatch& batch);
    // In putLogCheckouts' transaction: the tested commit its checkouts show.
    Result<void> putTestedFromCheckouts(std::int64_t checkRunRow,
                                        const std::vector<LogCheckout>& checkouts);

    std::string m_path;
    sqlite3* m_db = nullptr;
};

} // namespace relayhud
