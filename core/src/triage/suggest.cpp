// Automatic failure classes with their evidence (triage/suggest.h). Per run:
// one read of its failing results, the other attempts' outcomes, the job's
// failure line, and the job's timeline (read once per job and batch) for
// attribution (triage/attribution.h).
#include "relayhud/triage/suggest.h"

#include "suggest_lookup.h"
#include "suggest_why.h"

#include "relayhud/triage/classifier.h"
#include "relayhud/triage/evidence_source.h"
#include "relayhud/triage/rule_set.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace relayhud::triage {
namespace {

bool isTestFailure(TestOutcome o) { return o == TestOutcome::Failed || o == TestOutcome::Error; }

bool isJobFailure(Conclusion c)
{
    return c == Conclusion::Failure || c == Conclusion::Cancelled || c == Conclusion::TimedOut;
}

Evidence lineEvidence(const JobFailureLine& line)
{
    Evidence e;
    if (line.state != JobLineState::Matched) {
        e.kind = EvidenceKind::NoLine;
        e.message = line.message.empty() ? std::string(jobLineStateName(line.state)) : line.message;
        e.logHash = line.logHash;
        return e;
    }
    e.kind = EvidenceKind::FailureLine;
    e.rule = line.rule;
    e.line = line.line;
    e.text = line.text;
    e.captures = line.captures;
    e.ruleClass = line.cls;
    e.logHash = line.logHash;
    return e;
}

std::string lineWords(const JobFailureLine& line)
{
    const std::string rule =
        "line " + std::to_string(line.line) + " matches rule '" + line.rule + "'";
    return line.cls == FailureClass::Unset
               ? rule
               : rule + " (" + std::string(failureClassName(line.cls)) + ")";
}

// The rules a test's own message is matched against: the default rules,
// read once; only the infra ones decide.
const Classifier* defaultTestClassifier()
{
    static const std::unique_ptr<const Classifier> classifier = [] {
        auto made = Classifier::create(defaultRuleSet());
        return made ? std::make_unique<const Classifier>(std::move(*made)) : nullptr;
    }();
    return classifier.get();
}

Evidence evidenceOf(EvidenceKind kind)
{
    Evidence e;
    e.kind = kind;
    return e;
}

// One failing test's decision in the making: its attribution, the evidence
// each rule may point at, and the suggestion it fills.
struct Decision {
    Suggestion& s;
    std::optional<Attribution> a;
    Evidence concurrent;
    Evidence previous = evidenceOf(EvidenceKind::NoBaseline);
    std::optional<Evidence> breakage;
    std::optional<Evidence> line;

    // The class, its confidence and why, with the deciding evidence first
    // and every other piece after it.
    void finish(FailureClass cls, double confidence, Evidence deciding, std::string why)
    {
        s.cls = cls;
        s.confidence = cls == FailureClass::Untriaged ? 0.0 : confidence;
        s.why = std::move(why);
        const EvidenceKind first = deciding.kind;
        s.evidence.push_back(std::move(deciding));
        if (breakage && first != EvidenceKind::Breakage)
            s.evidence.push_back(*breakage);
        if (a) {
            for (const Evidence* e : {&concurrent, &previous})
                if (e->kind != first)
                    s.evidence.push_back(*e);
        }
        if (line && line->kind != first)
            s.evidence.push_back(*line);
    }
};

// Whether attribution had anything to compare the failure with: other PRs'
// runs, a previous head or build, a breakage, the job's noise or own reruns.
bool comparesAnything(const Attribution& a)
{
    return a.othersFailed + a.othersPassed > 0 || a.previous || a.onset || a.flakyShas > 0
           || a.failedFurther > 0 || a.noisy || a.ownJudged > 0;
}

class RunSuggester {
public:
    RunSuggester(const EvidenceSource& facts, const SuggestOptions& options, RunLookup& runs,
                 Attributors& attributors)
        : m_facts(facts), m_options(options), m_runs(runs), m_attributors(attributors)
    {
    }

    Result<void> suggest(CheckRunRow row, std::vector<Suggestion>& out)
    {
        auto here = m_runs.get(row);
        if (!here)
            return here.error();
        RunFacts facts;
        facts.here = std::move(here->run);
        facts.upstreamRepo = std::move(here->upstreamRepo);
        facts.reportedTests = here->reportedTests;
        auto line = m_facts.jobFailureLine(row);
        if (!line)
            return line.error();
        facts.line = std::move(*line);

        auto results = failingResults(row, facts.hasResults);
        if (!results)
            return results.error();
        const bool anyFailing = std::any_of(results->begin(), results->end(), [](const auto& r) {
            return isFailingOutcome(r.outcome);
        });
        if (auto tests = suggestTests(*results, facts, out); !tests)
            return tests;
        if (isJobFailure(facts.here.conclusion) && !anyFailing)
            return suggestJob(facts, out);
        return {};
    }

private:
    Result<std::vector<StoredTestResult>> failingResults(CheckRunRow row, bool& hasResults)
    {
        auto testRun = m_facts.testRunForCheckRun(row);
        if (!testRun)
            return testRun.error();
        hasResults = *testRun && (*testRun)->state == TestRunState::Stored;
        if (!hasResults)
            return std::vector<StoredTestResult>{};
        TestResultFilter filter;
        filter.outcomes = {TestOutcome::Failed, TestOutcome::Error, TestOutcome::XPassStrict};
        if (m_options.includeExpected)
            filter.outcomes.push_back(TestOutcome::XFailed);
        auto results = m_facts.testResults((*testRun)->id, filter);
        if (!results)
            return results.error();
        std::sort(results->begin(), results->end(),
                  [](const auto& a, const auto& b) { return a.identity < b.identity; });
        return results;
    }

    Result<void> suggestTests(const std::vector<StoredTestResult>& results, RunFacts& facts,
                              std::vector<Suggestion>& out)
    {
        std::vector<TestId> failingIds;
        for (const auto& r : results)
            if (isTestFailure(r.outcome))
                failingIds.push_back(r.testId);
        facts.failingCount = static_cast<int>(failingIds.size());
        std::vector<std::optional<Evidence>> reruns(failingIds.size());
        if (!failingIds.empty()) {
            if (auto r = findReruns(facts, failingIds, reruns); !r)
                return r;
            auto attributor = m_attributors.forRun(facts.here.checkRunRow);
            if (!attributor)
                return attributor.error();
            facts.attributor = *attributor;
            facts.index = facts.attributor->indexOf(facts.here.checkRunRow);
        }
        std::size_t failing = 0;
        for (const auto& r : results) {
            Suggestion s;
            s.target = {facts.here.checkRunRow, r.testId, r.identity, r.outcome};
            if (isTestFailure(r.outcome)) {
                decideFailing(s, facts, reruns[failing], r);
                ++failing;
            } else {
                decideMarked(s);
            }
            out.push_back(std::move(s));
        }
        return {};
    }

    // Rule 1: the outcome alone decides.
    static void decideMarked(Suggestion& s)
    {
        Evidence e = evidenceOf(EvidenceKind::Outcome);
        e.outcome = s.target.outcome;
        s.evidence.push_back(e);
        s.confidence = 1.0;
        if (s.target.outcome == TestOutcome::XPassStrict) {
            s.cls = FailureClass::UnexpectedPass;
            s.why = "passes although marked xfail(strict=True): a candidate to promote";
        } else {
            s.cls = FailureClass::Expected;
            s.why = "fails as its xfail mark expects";
        }
    }

    Result<void> findReruns(const RunFacts& facts, const std::vector<TestId>& ids,
                            std::vector<std::optional<Evidence>>& reruns)
    {
        auto others = m_facts.otherAttemptRows(facts.here.checkRunRow);
        if (!others)
            return others.error();
        for (const CheckRunRow other : *others) {
            auto outcomes = m_facts.testOutcomesIn(other, ids);
            if (!outcomes)
                return outcomes.error();
            for (std::size_t i = 0; i < ids.size(); ++i) {
                if (reruns[i] || (*outcomes)[i] != TestOutcome::Passed)
                    continue;
                auto run = m_runs.run(other);
                if (!run)
                    return run.error();
                Evidence e = evidenceOf(EvidenceKind::Rerun);
                e.run = *run;
                e.outcome = TestOutcome::Passed;
                reruns[i] = std::move(e);
            }
        }
        if (std::all_of(reruns.begin(), reruns.end(), [](const auto& r) { return r.has_value(); }))
            return {};
        return findGreenReruns(facts, reruns);
    }

    // Another attempt of the SHA went green with its results not fetched
    // (an artifact of another attempt, or none): by its own counts, none of
    // its tests failed. It passed every test this attempt failed.
    Result<void> findGreenReruns(const RunFacts& facts,
                                 std::vector<std::optional<Evidence>>& reruns)
    {
        auto attributor = m_attributors.forRun(facts.here.checkRunRow);
        if (!attributor)
            return attributor.error();
        const JobTimeline& timeline = (*attributor)->timeline();
        for (const TimelineRun& r : timeline.runs) {
            if (r.sha != facts.here.sha || r.row == facts.here.checkRunRow || r.hasResults
                || r.conclusion != Conclusion::Success)
                continue;
            auto run = m_facts.checkRun(r.row);
            if (!run)
                return run.error();
            const auto& counts = run->reported.tests;
            if (!counts || counts->total <= 0 || counts->failed != 0)
                continue; // no counts, or they say a test failed: no word on ours
            Evidence e = evidenceOf(EvidenceKind::Rerun);
            e.run = timelineRun(timeline, r);
            e.outcome = TestOutcome::Passed;
            e.message = "green, and 0 of its " + std::to_string(counts->total)
                        + " tests failed by its own counts (its results were not fetched)";
            for (auto& rerun : reruns)
                if (!rerun)
                    rerun = e;
            break;
        }
        return {};
    }

    // Rule 2: the test's own message names an infra failure.
    static std::optional<Evidence> testLine(const StoredTestResult& result)
    {
        const Classifier* classifier = defaultTestClassifier();
        if (!classifier || result.message.empty())
            return std::nullopt;
        const auto line = classifier->classifyText(result.message);
        if (!line || line->impliedClass != FailureClass::Infra)
            return std::nullopt;
        Evidence e = evidenceOf(EvidenceKind::TestLine);
        e.rule = line->ruleName;
        e.text = line->text;
        e.captures = line->captures;
        e.ruleClass = line->impliedClass;
        return e;
    }

    EvidenceRun run(const RunFacts& facts, TimelineIndex i) const
    {
        const JobTimeline& timeline = facts.attributor->timeline();
        return timelineRun(timeline, timeline.runs[i]);
    }

    // The evidence of an attribution: the concurrent runs, this PR's (or
    // nightly's) previous run, the breakage.
    void attributionEvidence(const Attribution& a, const RunFacts& facts, Evidence& concurrent,
                             Evidence& previous, std::optional<Evidence>& breakage) const
    {
        const JobTimeline& timeline = facts.attributor->timeline();
        concurrent.kind = EvidenceKind::Concurrent;
        concurrent.failedCount = a.othersFailed;
        concurrent.passedCount = a.othersPassed;
        concurrent.windowSeconds = m_options.attribution.windowSeconds;
        concurrent.failedFurther = a.failedFurther;
        for (const TimelineIndex i : a.failedOn)
            concurrent.others.push_back(run(facts, i));
        for (const TimelineIndex i : a.passedOn)
            concurrent.passed.push_back(run(facts, i));
        if (a.previous) {
            previous.kind = EvidenceKind::Baseline;
            previous.run = run(facts, *a.previous);
            previous.outcome = a.previousFailed ? TestOutcome::Failed : TestOutcome::Passed;
            const TimelineRun& before = timeline.runs[*a.previous];
            // A PR's two heads, two pushes of one branch, two nightlies (each
            // a main commit: the one its nightly was cut from, or main's HEAD;
            // real-backends.md section 2), or two merged PRs' builds of main
            // (their tested commits, 3.1) compare as they are; a free-text
            // nightly id is no commit and gets no range (compareUrl).
            const TimelineRun& here = timeline.runs[*facts.index];
            const bool tested = !before.testedSha.empty() && !here.testedSha.empty();
            previous.compareUrl =
                tested
                    ? compareUrl(timeline.upstreamRepo, Sha{before.testedSha}, Sha{here.testedSha})
                    : compareUrl(timeline.upstreamRepo, before.sha, facts.here.sha);
        } else {
            previous.kind = EvidenceKind::NoBaseline;
        }
        if (a.onset) {
            Evidence b;
            b.kind = EvidenceKind::Breakage;
            b.run = run(facts, *a.onset);
            if (a.firstSeen)
                b.firstSeen = run(facts, *a.firstSeen);
            b.culpritPr = a.culpritPr;
            b.brokenRuns = a.brokenRuns;
            b.brokenSources = a.brokenSources;
            b.pullUrl = pullFilesUrl(timeline.upstreamRepo, a.culpritPr);
            breakage = std::move(b);
        }
    }

    // A failing test's class: its own run first (rules 2, 3 and 3b), then
    // attribution over its job's timeline (rule 4), then the job's failure
    // line (rule 6; rule 5 is the job's own).
    void decideFailing(Suggestion& s, const RunFacts& facts, const std::optional<Evidence>& rerun,
                       const StoredTestResult& result)
    {
        m_unclear = false;
        Decision d{s};
        if (facts.line)
            d.line = lineEvidence(*facts.line);
        if (facts.attributor && facts.index)
            d.a = facts.attributor->attribute(*facts.index, result.testId);
        if (d.a)
            attributionEvidence(*d.a, facts, d.concurrent, d.previous, d.breakage);
        if (decideByOwnRun(d, facts, rerun, result))
            return;
        // Rules 4 and 6 read the job's other runs: provisional while some
        // of them still await their results.
        if (facts.attributor && facts.index)
            s.coverage = attributionCoverage(facts.attributor->timeline(), *facts.index,
                                             m_options.attribution);
        if (d.a && comparesAnything(*d.a)) {
            decideByAttribution(d, facts);
            return;
        }
        // Rule 6.
        const std::string nothing = "no other run of this job to compare";
        if (d.line && d.line->kind == EvidenceKind::FailureLine
            && facts.line->cls != FailureClass::Unset && facts.line->cls != FailureClass::Infra) {
            d.finish(facts.line->cls, 0.5, *d.line,
                     nothing + "; the job's " + lineWords(*facts.line));
            return;
        }
        d.finish(FailureClass::Untriaged, 0.0, d.previous, nothing + ", and no rule names a class");
    }

    // Rules 2, 3 and 3b: what the test's own run says, whatever the others.
    bool decideByOwnRun(Decision& d, const RunFacts& facts, const std::optional<Evidence>& rerun,
                        const StoredTestResult& result) const
    {
        Suggestion& s = d.s;
        const auto& here = facts.here;
        // Rule 2: the test's own message is an infra failure (a device that
        // was busy may well be free on the rerun: still infra, not flaky).
        if (auto infra = testLine(result)) {
            const std::string rule = infra->rule;
            const std::string text = infra->text;
            d.finish(FailureClass::Infra, 0.9, std::move(*infra),
                     "its error matches rule '" + rule + "' (infra): " + text);
            if (rerun)
                s.evidence.push_back(*rerun);
            return true;
        }
        // Rule 3: a rerun passed.
        if (rerun) {
            const EvidenceRun& passed = *rerun->run;
            d.finish(FailureClass::Flaky, rerun->message.empty() ? 0.95 : 0.9, *rerun,
                     "fails on attempt " + std::to_string(here.runAttempt) + ", passed on attempt "
                         + std::to_string(passed.runAttempt) + " of the same SHA ("
                         + here.sha.shortSha() + ")"
                         + (rerun->message.empty() ? std::string() : ", " + rerun->message)
                         + ": flaky");
            return true;
        }
        // Rule 3b: the job went green and its own counts say no test
        // failed, while its JUnit shows this one failing: its report hides
        // failures, whatever made the test fail (a backend's bug: a harness
        // that reports success whatever pytest says). torch-spyre's
        // validate mode sends green with no counts (real-backends.md 3.2):
        // no counts, no such claim.
        if (here.conclusion == Conclusion::Success && facts.reportedTests
            && facts.reportedTests->total > 0 && facts.reportedTests->failed == 0) {
            Evidence e = evidenceOf(EvidenceKind::Outcome);
            e.outcome = result.outcome;
            d.finish(
                FailureClass::BackendBug, 0.9, std::move(e),
                "the job reported green with 0 of its " + std::to_string(facts.reportedTests->total)
                    + " tests failed, but its JUnit shows " + std::to_string(facts.failingCount)
                    + (facts.failingCount == 1 ? " test" : " tests")
                    + " failing, this one among them: its report hides failures (the "
                      "backend's bug)");
            return true;
        }
        return false;
    }

    // Rule 4: attribution over the job's timeline, its call as a class.
    void decideByAttribution(Decision& d, const RunFacts& facts)
    {
        const Attribution& a = *d.a;
        const WhyContext context = whyContext(facts, m_options.attribution);
        switch (a.call) {
        case AttributionCall::ThisPr:
        case AttributionCall::Culprit:
            if (a.call == AttributionCall::ThisPr && a.previous
                && buildsMainHead(context.timeline.runs[context.index])) {
                // Main's previous build failed it too: older than this
                // merge. Else the range may hold other merges: less sure.
                d.finish(a.previousFailed ? FailureClass::PreExisting : FailureClass::Regression,
                         a.previousFailed ? a.confidence : std::min(a.confidence, 0.6), d.previous,
                         regressionWhy(a, context));
                return;
            }
            d.finish(FailureClass::Regression, a.confidence,
                     a.call == AttributionCall::Culprit ? *d.breakage : d.concurrent,
                     regressionWhy(a, context));
            return;
        case AttributionCall::BrokenTrunk:
            d.finish(FailureClass::PreExisting, a.confidence, *d.breakage,
                     breakageWhy(a, context) + ": already broken upstream"
                         + (a.culpritPr == facts.here.prNumber
                                ? ", likely by this PR's own earlier heads (merged?)"
                            : a.culpritPr ? ", likely by #" + std::to_string(a.culpritPr.value)
                                          : ""));
            return;
        case AttributionCall::Backend:
            d.finish(FailureClass::BackendBug, a.confidence, *d.breakage,
                     breakageWhy(a, context)
                         + " and no PR failed it first: the backend changed (or an upstream"
                           " change this job never ran on)");
            return;
        case AttributionCall::Flaky:
            d.finish(FailureClass::Flaky, a.confidence, d.concurrent, flakyWhy(a, context));
            return;
        case AttributionCall::Unclear:
            m_unclear = true;
            d.finish(FailureClass::Untriaged, 0.0, d.concurrent, unclearWhy(a, context));
            return;
        case AttributionCall::NightlyOld:
            d.finish(FailureClass::PreExisting, a.confidence, d.previous,
                     nightlyWhy(a, context, d.previous));
            return;
        case AttributionCall::NightlyNew:
            d.finish(FailureClass::Regression, a.confidence,
                     d.previous.kind == EvidenceKind::Baseline ? d.previous : d.concurrent,
                     nightlyWhy(a, context, d.previous));
            return;
        }
    }

    // Rules 5 and 6 for a job that failed without failing tests.
    Result<void> suggestJob(const RunFacts& facts, std::vector<Suggestion>& out)
    {
        Suggestion s;
        s.target.checkRunRow = facts.here.checkRunRow;
        const std::string ended = facts.here.conclusion == Conclusion::Cancelled  ? "was cancelled"
                                  : facts.here.conclusion == Conclusion::TimedOut ? "timed out"
                                                                                  : "failed";
        const std::string how =
            "job " + ended + (facts.hasResults ? " with no failing test" : " without test results");
        if (!facts.line) {
            s.why = how + "; its log was not read (sync artifacts to read it)";
            out.push_back(std::move(s));
            return {};
        }
        const JobFailureLine& line = *facts.line;
        s.evidence.push_back(lineEvidence(line));
        if (line.state != JobLineState::Matched || line.cls == FailureClass::Unset) {
            s.why = how + "; "
                    + (line.state == JobLineState::Matched
                           ? lineWords(line) + ", which names no class"
                           : "no failure line: " + s.evidence.back().message);
            // Cancelled says the job stopped, not why (a person, a newer
            // push, an outage): infra only when other backends' jobs failed
            // on infrastructure at the same time.
            if (facts.here.conclusion == Conclusion::Cancelled) {
                if (auto r = addOutage(s, facts); !r)
                    return r;
                if (!s.group.empty()) {
                    s.cls = FailureClass::Infra;
                    s.confidence = 0.7;
                } else {
                    s.why += "; no runner loss or outage across backends says why it was "
                             "cancelled";
                }
            }
            out.push_back(std::move(s));
            return {};
        }
        if (!facts.hasResults && line.cls != FailureClass::Infra)
            if (auto named = attributeNamedTest(facts, how)) {
                out.push_back(std::move(*named));
                return {};
            }
        s.cls = line.cls;
        s.confidence = 0.8;
        s.why = how + "; " + lineWords(line);
        if (line.cls == FailureClass::Infra)
            if (auto r = addOutage(s, facts); !r)
                return r;
        out.push_back(std::move(s));
        return {};
    }

    // A job without results whose failure line names tests (pytest's short
    // summary, a "FAILED file::Class::name - ..." line per failed test):
    // those tests are what failed, and the job's timeline says where each
    // comes from, as for stored failing tests. The job takes the weightiest
    // of their classes: Dr. CI calls a job unrelated (broken trunk, flaky)
    // only when its failure as a whole matches one, and a new failure
    // otherwise (pytorch/test-infra @000fb33b, torchci/pages/api/drci/drci.ts
    // getWorkflowJobsStatuses, isBrokenTrunk / isSameFailure).
    std::optional<Suggestion> attributeNamedTest(const RunFacts& facts, const std::string& how)
    {
        const JobFailureLine& line = *facts.line;
        if (line.captures.empty() || line.captures.front().find("::") == std::string::npos)
            return std::nullopt;
        if (line.text.find("XPASS(strict)") != std::string::npos) {
            Suggestion s;
            s.target.checkRunRow = facts.here.checkRunRow;
            s.cls = FailureClass::UnexpectedPass;
            s.confidence = 0.9;
            s.why = how + "; its log names " + line.captures.front()
                    + ", which passes although marked xfail(strict=True): a candidate to promote";
            s.evidence.push_back(lineEvidence(line));
            return s;
        }
        auto attributor = m_attributors.forRun(facts.here.checkRunRow);
        if (!attributor)
            return std::nullopt;
        std::vector<std::string> names = line.named;
        if (names.empty()) // picked before schema 10: its own test only
            names.push_back(line.captures.front());
        std::optional<Suggestion> weightiest;
        std::map<FailureClass, int> others;
        for (const std::string& identity : names) {
            auto one = attributeOneNamed(facts, **attributor, identity);
            if (!one)
                continue;
            if (!weightiest || jobWeight(one->cls) < jobWeight(weightiest->cls)) {
                if (weightiest)
                    ++others[weightiest->cls];
                weightiest = std::move(one);
                weightiest->why = how + "; its log names " + identity + ": " + weightiest->why;
            } else {
                ++others[one->cls];
            }
        }
        if (weightiest && !others.empty()) {
            std::string rest;
            for (const auto& [cls, count] : others)
                rest += (rest.empty() ? "" : ", ") + std::to_string(count) + " "
                        + std::string(cls == FailureClass::Untriaged ? "unclear"
                                                                     : failureClassName(cls));
            weightiest->why += "; " + std::to_string(names.size())
                               + " failed tests in its log (the others: " + rest + ")";
        }
        return weightiest;
    }

    // Which class of a job's named tests stands for the job: the order a
    // report lists them in (failure_class.h ReportSection), a test the
    // history cannot judge before the classes that excuse a job (infra,
    // flaky), which may not excuse all of it.
    static int jobWeight(FailureClass cls)
    {
        switch (cls) {
        case FailureClass::Regression: return 0;
        case FailureClass::PreExisting: return 1;
        case FailureClass::BackendBug: return 2;
        case FailureClass::UnexpectedPass: return 3;
        case FailureClass::TestOrConfig: return 4;
        case FailureClass::Untriaged: return 5;
        case FailureClass::Infra: return 6;
        case FailureClass::Flaky: return 7;
        default: return 8;
        }
    }

    // One test a job's log names, attributed over its timeline; nullopt when
    // the history says nothing better than the line's own class.
    std::optional<Suggestion> attributeOneNamed(const RunFacts& facts,
                                                const JobAttributor& attributor,
                                                const std::string& identity)
    {
        const auto& ids = attributor.timeline().namedIds;
        const auto testId = ids.find(identity);
        if (testId == ids.end())
            return std::nullopt;
        std::vector<std::optional<Evidence>> reruns(1);
        RunFacts named = facts;
        // A test no stored result names has no outcome elsewhere to read;
        // a green rerun's own counts still speak for it.
        const auto searched = testId->second.value > 0 ? findReruns(named, {testId->second}, reruns)
                                                       : findGreenReruns(named, reruns);
        if (!searched)
            return std::nullopt;
        named.attributor = &attributor;
        named.index = attributor.indexOf(facts.here.checkRunRow);
        StoredTestResult result;
        result.testId = testId->second;
        result.identity = identity;
        result.outcome = TestOutcome::Failed;
        result.message = facts.line->text;
        Suggestion s;
        s.target.checkRunRow = facts.here.checkRunRow;
        decideFailing(s, named, reruns.front(), result);
        if (s.cls == FailureClass::Untriaged && !m_unclear)
            return std::nullopt;
        return s;
    }

    Result<void> addOutage(Suggestion& s, const RunFacts& facts)
    {
        auto peers = m_facts.infraPeerRows(facts.here.checkRunRow, m_options.outageWindowSeconds);
        if (!peers)
            return peers.error();
        Evidence e = evidenceOf(EvidenceKind::Outage);
        std::set<std::string> backends{facts.here.downstreamRepo};
        // Named by its first failure (of any backend, this one's other jobs
        // too), so every member gives the same group when they see the same
        // peers.
        EpochSeconds first = facts.here.startedAt;
        for (const CheckRunRow row : *peers) {
            auto run = m_runs.run(row);
            if (!run)
                return run.error();
            if (run->startedAt != 0 && (first == 0 || run->startedAt < first))
                first = run->startedAt;
            // One run per other backend: the first (oldest) stands for it.
            if (backends.insert(run->downstreamRepo).second)
                e.others.push_back(std::move(*run));
        }
        if (e.others.empty())
            return {}; // one backend alone is no outage
        std::string names;
        for (const std::string& backend : backends)
            names += (names.empty() ? "" : ", ") + backend;
        s.group =
            "outage from " + (first ? formatIso(first) : facts.here.sha.shortSha()) + ": " + names;
        s.why +=
            "; one outage across " + std::to_string(backends.size()) + " backends (" + names + ")";
        s.evidence.insert(s.evidence.begin(), std::move(e));
        return {};
    }

    const EvidenceSource& m_facts;
    const SuggestOptions& m_options;
    RunLookup& m_runs;
    Attributors& m_attributors;
    bool m_unclear = false; // the last decideFailing found too few runs to call it
};

} // namespace

std::string_view evidenceKindName(EvidenceKind kind)
{
    switch (kind) {
    case EvidenceKind::Outcome: return "outcome";
    case EvidenceKind::Rerun: return "rerun";
    case EvidenceKind::Concurrent: return "other PRs";
    case EvidenceKind::Baseline: return "previous head";
    case EvidenceKind::NoBaseline: return "no previous head";
    case EvidenceKind::Breakage: return "breakage";
    case EvidenceKind::TestLine: return "test error";
    case EvidenceKind::FailureLine: return "failure line";
    case EvidenceKind::NoLine: return "no failure line";
    case EvidenceKind::Outage: return "outage";
    }
    return "";
}

std::string compareUrl(std::string_view upstreamRepo, const Sha& base, const Sha& head)
{
    // Hex, as commits are named (full, or the abbreviation a tested commit
    // may be known by); a nightly's free-text id or a push's delivery GUID
    // is no commit (real-backends.md section 2).
    const auto commit = [](const Sha& sha) {
        return !sha.value.empty()
               && sha.value.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    };
    if (upstreamRepo.empty() || !commit(base) || !commit(head) || base == head)
        return {};
    return "https://github.com/" + std::string(upstreamRepo) + "/compare/" + base.value + "..."
           + head.value;
}

std::string pullFilesUrl(std::string_view upstreamRepo, PrNumber pr)
{
    if (upstreamRepo.empty() || pr.value <= 0)
        return {};
    return "https://github.com/" + std::string(upstreamRepo) + "/pull/" + std::to_string(pr.value)
           + "/files";
}

Result<std::vector<Suggestion>> suggestForRun(const Database& cache, CheckRunRow checkRunRow,
                                              const SuggestOptions& options)
{
    return suggestForRuns(CacheEvidenceSource(cache), {checkRunRow}, options);
}

Result<std::vector<Suggestion>> suggestForRuns(const Database& cache,
                                               const std::vector<CheckRunRow>& checkRunRows,
                                               const SuggestOptions& options)
{
    return suggestForRuns(CacheEvidenceSource(cache), checkRunRows, options);
}

Result<std::vector<Suggestion>> suggestForRuns(const EvidenceSource& facts,
                                               const std::vector<CheckRunRow>& checkRunRows,
                                               const SuggestOptions& options)
{
    RunLookup runs(facts);
    Attributors attributors(facts, options.attribution);
    std::vector<Suggestion> out;
    for (const CheckRunRow row : checkRunRows) {
        RunSuggester suggester(facts, options, runs, attributors);
        if (auto r = suggester.suggest(row, out); !r)
            return makeError("suggestions for check run " + std::to_string(row.value) + ": "
                             + r.message());
    }
    return out;
}

} // namespace relayhud::triage
