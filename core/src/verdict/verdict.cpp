// The verdict rules of verdict.h, in order, over the consistency checks.
#include "relayhud/verdict/verdict.h"

#include "relayhud/config/config_file.h"
#include "relayhud/config/resolver.h"
#include "relayhud/model/count_kind.h"
#include "verdict/resolution_memo.h"

#include <algorithm>
#include <cmath>

namespace relayhud::verdict {
namespace {

std::string plural(std::int64_t n, const char* one, const char* many)
{
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

bool hasStoredResults(const VerdictInput& in)
{
    return in.testRun && in.testRun->state == TestRunState::Stored;
}

std::int64_t failingCases(const TestRunTotals& t)
{
    return t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
           + t.count(TestOutcome::XPassStrict);
}

// The artifacts' figures the way the HUD row counts them (pytest's summary:
// xfails are skipped, strict XPASSes and errors are failed).
TestCounts artifactCounts(const TestRunTotals& t)
{
    TestCounts c;
    c.total = t.cases();
    c.passed = t.count(TestOutcome::Passed);
    c.failed = failingCases(t);
    c.skipped = t.count(TestOutcome::Skipped) + t.count(TestOutcome::XFailed);
    return c;
}

std::string countsText(const TestCounts& c)
{
    return std::to_string(c.total) + " tests, " + std::to_string(c.passed) + " passed, "
           + std::to_string(c.failed) + " failed, " + std::to_string(c.skipped) + " skipped";
}

ConsistencyCheck artifactsCheck(const VerdictInput& in)
{
    if (!in.testRun)
        return {CheckKind::Artifacts, CheckState::Fail,
                in.run.reported.artifactUrl.empty()
                    ? "the run reported no artifact_url, and no test results were imported"
                    : "the artifacts at " + in.run.reported.artifactUrl + " have not been fetched"};
    const TestRunInfo& t = *in.testRun;
    if (t.state != TestRunState::Stored)
        return {CheckKind::Artifacts, CheckState::Fail,
                std::string("no test results: ") + testRunStateName(t.state)
                    + (t.message.empty() ? "" : " (" + t.message + ")")};
    if (t.totals.cases() == 0)
        return {CheckKind::Artifacts, CheckState::Fail,
                "the artifacts hold " + plural(t.totals.reports, "report", "reports")
                    + " with no test case"};
    if (const std::string* partial = partialWarning(t))
        return {CheckKind::Artifacts, CheckState::Fail,
                "the artifacts are partial: " + partial->substr(kPartialWarning.size())};
    return {CheckKind::Artifacts, CheckState::Pass,
            plural(t.totals.cases(), "test case", "test cases") + " in "
                + plural(t.totals.reports, "report", "reports") + " (" + t.label + ")"};
}

ConsistencyCheck configCheck(const VerdictInput& in)
{
    const RunConfig& c = in.config;
    if (c.config) {
        std::int64_t names = 0;
        for (const config::FileSection& f : c.config->files)
            for (const config::TestEntry& e : f.tests)
                names += static_cast<std::int64_t>(e.names.size());
        return {CheckKind::Config, CheckState::Pass,
                c.source + " parses: "
                    + plural(static_cast<std::int64_t>(c.config->files.size()), "file", "files")
                    + ", " + plural(names, "name", "names")};
    }
    if (c.source.empty())
        return {CheckKind::Config, CheckState::Fail,
                "no outcome config is set for " + in.run.downstreamRepo};
    return {CheckKind::Config, CheckState::Fail, c.source + " does not parse: " + c.error};
}

ConsistencyCheck shaCheck(const VerdictInput& in)
{
    const std::string dispatched = in.run.upstreamSha.value;
    if (!in.testedSha || in.testedSha->empty())
        return {CheckKind::TestedSha, CheckState::NotCheckable,
                "the run does not say which upstream SHA it tested (dispatched " + dispatched
                    + ")"};
    if (*in.testedSha == in.run.upstreamSha)
        return {CheckKind::TestedSha, CheckState::Pass, "tested the dispatched SHA " + dispatched};
    return {CheckKind::TestedSha, CheckState::Fail,
            "tested " + in.testedSha->value + ", but " + dispatched + " was dispatched"};
}

// " health checks" where the table knows what the counts count; "" where not.
std::string knownCountKind(const CheckRun& run)
{
    const CountKind kind = countKindOf(run.downstreamRepo).kind;
    return kind == CountKind::Unknown ? std::string() : " " + std::string(countKindName(kind));
}

ConsistencyCheck countsCheck(const VerdictInput& in)
{
    if (!in.run.reported.tests)
        return {CheckKind::Counts, CheckState::NotCheckable, "the run reported no test counts"};
    // Commands and health checks are no JUnit cases: comparing their number
    // with the artifacts' cases would dispute every green (model/count_kind.h).
    if (const CountKindEntry kind = countKindOf(in.run.downstreamRepo);
        !comparableWithJUnit(kind.kind))
        return {CheckKind::Counts, CheckState::NotCheckable,
                "the self-reported counts are " + std::string(countKindName(kind.kind)) + " ("
                    + in.run.downstreamRepo
                    + "), not test cases: not compared with the artifacts' cases"};
    if (!hasStoredResults(in))
        return {CheckKind::Counts, CheckState::NotCheckable,
                "no artifacts to compare the self-reported counts with"};
    const TestCounts reported = *in.run.reported.tests;
    const TestCounts counted = artifactCounts(in.testRun->totals);
    if (reported == counted)
        return {CheckKind::Counts, CheckState::Pass,
                "self-reported counts equal the artifacts': " + countsText(counted)};
    return {CheckKind::Counts, CheckState::Fail,
            "self-reported " + countsText(reported) + "; the artifacts have "
                + countsText(counted)};
}

ConsistencyCheck shrinkCheck(const VerdictInput& in, std::int64_t executed)
{
    if (!in.previousExecuted || !hasStoredResults(in))
        return {CheckKind::ExecutedSet, CheckState::NotCheckable,
                "no previous run of this job with results to compare with"};
    const std::int64_t before = *in.previousExecuted;
    const double shrink =
        before > 0 ? static_cast<double>(before - executed) / static_cast<double>(before) : 0.0;
    const std::string figures =
        std::to_string(executed) + " executed, " + std::to_string(before) + " in the previous run";
    if (shrink <= in.shrinkThreshold)
        return {CheckKind::ExecutedSet, CheckState::Pass, figures};
    const std::string percent = std::to_string(std::lround(shrink * 100)) + "%";
    if (in.configChanged.value_or(false))
        return {CheckKind::ExecutedSet, CheckState::Pass,
                figures + ": shrank " + percent + ", with a config change"};
    return {CheckKind::ExecutedSet, CheckState::Fail,
            figures + ": shrank " + percent + " (over "
                + std::to_string(std::lround(in.shrinkThreshold * 100)) + "%) without "
                + (in.configChanged ? "a config change" : "a known config change")};
}

ConsistencyCheck staleCheck(const VerdictInput& in)
{
    const SelfReported& r = in.run.reported;
    if (in.run.isStale(in.now))
        return {CheckKind::NotStale, CheckState::Fail,
                "still in_progress "
                    + std::to_string((in.now - r.startedAt.value_or(in.now)) / 3600)
                    + " h after it started: the relay should have timed it out"};
    if (r.status == RunStatus::Completed)
        return {CheckKind::NotStale, CheckState::Pass, "completed"};
    return {CheckKind::NotStale, CheckState::Pass,
            std::string("status ") + std::string(toString(r.status))};
}

const ConsistencyCheck& check(const RunVerdict& v, CheckKind kind)
{
    return *std::find_if(v.checks.begin(), v.checks.end(),
                         [&](const ConsistencyCheck& c) { return c.kind == kind; });
}

bool failed(const RunVerdict& v, CheckKind kind)
{
    return check(v, kind).state == CheckState::Fail;
}

std::string redReason(const VerdictInput& in)
{
    std::string conclusion(toString(in.run.reported.conclusion));
    if (hasStoredResults(in)) {
        const TestRunTotals& t = in.testRun->totals;
        const std::int64_t failing = failingCases(t);
        if (failing == 0)
            return conclusion + "; the artifacts show no failing test among "
                   + plural(t.cases(), "case", "cases")
                   + ": the failure is outside the tests (build, infrastructure)";
        return conclusion + ": " + std::to_string(t.count(TestOutcome::Failed)) + " failed, "
               + std::to_string(t.count(TestOutcome::Error)) + " errors, "
               + std::to_string(t.count(TestOutcome::XPassStrict)) + " strict xpasses of "
               + plural(t.cases(), "case", "cases") + " (artifacts)";
    }
    if (in.run.reported.tests)
        return conclusion + ": " + std::to_string(in.run.reported.tests->failed) + " failed of "
               + std::to_string(in.run.reported.tests->total) + knownCountKind(in.run)
               + " (self-reported; no artifacts)";
    return conclusion + " (no test counts)";
}

// Why a green has no stored results, in a few words.
std::string noResultsGist(const VerdictInput& in)
{
    if (!in.testRun)
        return in.run.reported.artifactUrl.empty() ? "no artifacts" : "artifacts not fetched";
    if (in.testRun->state != TestRunState::Stored)
        return std::string("no test results (") + testRunStateName(in.testRun->state) + ")";
    return "no test case in the artifacts";
}

// What the job's pytest selection did to the listings that did not run;
// "" when every listing ran.
std::string selectionSentence(const ConfigCoverage& c)
{
    const std::int64_t deselected =
        c.bucket(Bucket::Xfail).deselected + c.bucket(Bucket::XfailStrict).deselected;
    const std::int64_t notRun =
        c.bucket(Bucket::Xfail).missing + c.bucket(Bucket::XfailStrict).missing;
    if (deselected == 0 && notRun == 0)
        return {};
    if (c.selection && c.selection->deselectsXfail == config::Tri::Yes)
        return "deselected by the job, not missing: "
               + plural(deselected, "xfail/xfail_strict listing", "xfail/xfail_strict listings")
               + " and every unlisted test left to unlisted_test_mode xfail (" + c.selection->why
               + ")";
    if (c.selection && c.selection->deselectsXfail == config::Tri::No)
        return "the job selects xfail tests (" + c.selection->why
               + "): " + plural(notRun, "xfail/xfail_strict listing", "xfail/xfail_strict listings")
               + " did not run";
    const std::string why = c.selection ? c.selection->why : std::string("not read");
    return "the job's pytest selection is unknown (" + why + "): "
           + plural(c.xfailNotRunSelectionUnknown, "xfail/xfail_strict listing",
                    "xfail/xfail_strict listings")
           + " did not run, missing or deselected by -m \"not xfail\"; no one can tell which";
}

// Rules 3b-3g: the reasons of every rule that applies, and the verdict and
// short reason of the first.
void judgeGreen(const VerdictInput& in, RunVerdict& v)
{
    std::optional<Verdict> first;
    auto flag = [&](Verdict verdict, std::string gist, std::string reason) {
        if (!first) {
            first = verdict;
            v.shortReason = std::move(gist);
        }
        v.reasons.push_back(std::move(reason));
    };
    const bool partial = hasStoredResults(in) && partialWarning(*in.testRun);
    if (!hasStoredResults(in) || (failed(v, CheckKind::Artifacts) && !partial)) {
        flag(Verdict::GreenUnverifiable, noResultsGist(in),
             "self-reported green without test results: "
                 + check(v, CheckKind::Artifacts).sentence);
    } else {
        const std::int64_t failing = failingCases(in.testRun->totals);
        // Not a green, whatever the callback said: torch-spyre's variant B
        // sends its validate-mode child run's conclusion, success while
        // tests failed (real-backends.md 3.2, 3.3).
        if (failing > 0)
            flag(Verdict::GreenDisputed, "reported success, tests failed",
                 "reported success, but " + plural(failing, "test fails", "tests fail")
                     + " in its JUnit: not a green");
        // Partial reports hold fewer cases than ran: their counts say nothing.
        if (partial)
            flag(Verdict::GreenUnverifiable, "artifacts are partial",
                 "self-reported green, but " + check(v, CheckKind::Artifacts).sentence);
        else if (failed(v, CheckKind::Counts))
            flag(Verdict::GreenDisputed, "counts differ from the artifacts'",
                 "the counts disagree: " + check(v, CheckKind::Counts).sentence);
    }
    if (failed(v, CheckKind::TestedSha))
        flag(Verdict::GreenDisputed, "tested another SHA", check(v, CheckKind::TestedSha).sentence);
    if (failed(v, CheckKind::Config))
        flag(Verdict::GreenUnverifiable,
             in.config.source.empty() ? "no outcome config" : "outcome config does not parse",
             check(v, CheckKind::Config).sentence);
    if (const std::optional<ConfigCoverage>& c = v.configCoverage) {
        if (!c->mandatoryNotPassed.empty())
            flag(Verdict::GreenDisputed, "mandatory tests did not pass",
                 plural(static_cast<std::int64_t>(c->mandatoryNotPassed.size()),
                        "mandatory_success test", "mandatory_success tests")
                     + " did not pass");
        if (!c->strictXpassed.empty())
            flag(Verdict::GreenDisputed, "xfail_strict tests passed",
                 plural(static_cast<std::int64_t>(c->strictXpassed.size()), "xfail_strict test",
                        "xfail_strict tests")
                     + " passed (promote them)");
        if (!c->unknown.empty())
            flag(Verdict::GreenUnverifiable, "tests the config does not account for",
                 plural(static_cast<std::int64_t>(c->unknown.size()), "test", "tests")
                     + " ran that the config does not account for (first: "
                     + c->unknown.front().identity + ": " + c->unknown.front().why + ")");
        if (!c->mandatoryNotRun.empty())
            flag(Verdict::GreenIncomplete, "mandatory tests did not run",
                 plural(static_cast<std::int64_t>(c->mandatoryNotRun.size()),
                        "mandatory_success test", "mandatory_success tests")
                     + " did not run (first: " + c->mandatoryNotRun.front().name + ")");
    }
    if (failed(v, CheckKind::ExecutedSet))
        flag(Verdict::GreenIncomplete, "executed set shrank",
             "the executed set shrank: " + check(v, CheckKind::ExecutedSet).sentence);
    v.verdict = first.value_or(Verdict::VerifiedGreen);
    if (!first)
        v.reasons.push_back(in.selection && in.selection->deselectsXfail == config::Tri::Yes
                                ? std::string("the green holds: every mandatory_success test ran "
                                              "and passed against the dispatched SHA")
                                : std::string("the declared tests ran against the dispatched SHA "
                                              "with the outcomes the config expects"));
    if (v.configCoverage)
        if (std::string sentence = selectionSentence(*v.configCoverage); !sentence.empty())
            v.reasons.push_back(std::move(sentence));
}

} // namespace

const char* verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::VerifiedGreen: return "verified green";
    case Verdict::GreenIncomplete: return "green, incomplete";
    case Verdict::GreenUnverifiable: return "green, unverifiable";
    case Verdict::GreenDisputed: return "green, disputed";
    case Verdict::Red: return "red";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::Pending: return "pending";
    case Verdict::Stale: return "stale";
    }
    return "?";
}

bool isUnverifiedGreen(Verdict verdict)
{
    return verdict == Verdict::GreenIncomplete || verdict == Verdict::GreenUnverifiable
           || verdict == Verdict::GreenDisputed;
}

const char* bucketName(Bucket bucket)
{
    switch (bucket) {
    case Bucket::MandatorySuccess: return "mandatory_success";
    case Bucket::Xfail: return "xfail";
    case Bucket::XfailStrict: return "xfail_strict";
    case Bucket::Skip: return "skip";
    case Bucket::Unlisted: return "unlisted";
    }
    return "?";
}

const char* checkKindName(CheckKind kind)
{
    switch (kind) {
    case CheckKind::Artifacts: return "artifacts";
    case CheckKind::Config: return "config";
    case CheckKind::TestedSha: return "tested SHA";
    case CheckKind::Counts: return "counts";
    case CheckKind::ExecutedSet: return "executed set";
    case CheckKind::NotStale: return "not stale";
    }
    return "?";
}

const char* checkStateName(CheckState state)
{
    switch (state) {
    case CheckState::Pass: return "pass";
    case CheckState::Fail: return "FAIL";
    case CheckState::NotCheckable: return "not checkable";
    }
    return "?";
}

RunConfig loadRunConfig(const std::string& path)
{
    RunConfig out;
    out.source = path;
    Result<config::LoadedConfig> loaded = config::loadConfigFile(path);
    if (!loaded) {
        out.error = loaded.message();
        return out;
    }
    Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(loaded->text);
    if (!parsed) {
        out.error = parsed.message();
        return out;
    }
    for (const config::Finding& f : parsed->findings)
        if (f.severity == config::Severity::Error) {
            out.error = config::formatFinding(f);
            return out;
        }
    out.set(std::move(parsed->config));
    return out;
}

void RunConfig::set(config::OutcomeConfig parsed)
{
    // One block: the Resolver refers to the config beside it.
    struct Loaded {
        explicit Loaded(config::OutcomeConfig c) : config(std::move(c)), resolver(config) {}
        const config::OutcomeConfig config;
        const config::Resolver resolver;
    };
    auto loaded = std::make_shared<const Loaded>(std::move(parsed));
    config = std::shared_ptr<const config::OutcomeConfig>(loaded, &loaded->config);
    resolver = std::shared_ptr<const config::Resolver>(loaded, &loaded->resolver);
    memo = std::make_shared<ResolutionMemo>();
}

RunVerdict computeVerdict(const VerdictInput& in, const std::vector<StoredTestResult>& results)
{
    RunVerdict v;
    v.run = in.run;
    v.testRun = in.testRun;
    if (hasStoredResults(in))
        v.executed = in.testRun->totals.cases() - in.testRun->totals.count(TestOutcome::Skipped);
    v.checks = {artifactsCheck(in),          configCheck(in), shaCheck(in), countsCheck(in),
                shrinkCheck(in, v.executed), staleCheck(in)};
    const config::OutcomeConfig* config = in.config.config.get();
    if (config && hasStoredResults(in))
        v.configCoverage = configCoverage(in.config, results, in.selection);
    v.coverage = opDtypeCoverage(config, results);

    const SelfReported& r = in.run.reported;
    if (r.status != RunStatus::Completed) {
        v.verdict = in.run.isStale(in.now) ? Verdict::Stale : Verdict::Pending;
        v.reasons.push_back(check(v, CheckKind::NotStale).sentence);
        return v;
    }
    switch (r.conclusion) {
    case Conclusion::Success: judgeGreen(in, v); break;
    case Conclusion::Failure:
    case Conclusion::TimedOut:
        v.verdict = Verdict::Red;
        v.reasons.push_back(redReason(in));
        break;
    default:
        v.verdict = Verdict::Inconclusive;
        const std::string_view name = toString(r.conclusion);
        v.reasons.push_back("finished without a result: conclusion "
                            + std::string(name.empty() ? "none" : name));
    }
    return v;
}

} // namespace relayhud::verdict
