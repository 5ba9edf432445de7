// The workflow checks (workflow_lint.h). Each check's fact and citation is in
// workflowChecks() below and, at length, in docs/crcr-integration-facts.md.
#include "relayhud/doctor/workflow_lint.h"

#include "doctor/workflow_model.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace relayhud::doctor {
namespace {

// GitHub's default job timeout and the relay's zombie timeout (utils/config.py:158-162).
constexpr long kSweepMinutes = 360;

const std::vector<CheckInfo> kChecks = {
    {"dispatch-filter", "repository_dispatch names the event types it builds for",
     "The relay dispatches only pull_request (opened, reopened, synchronize, closed) and push "
     "(aws/lambda/cross_repo_ci_relay/webhook/event_handler.py:22,415-440)."},
    {"exact-sha", "PR jobs check out the SHA the relay attributes their result to",
     "A PR row is stored under client_payload.payload.pull_request.head.sha whatever the job "
     "tested (torchci/lib/crcr/crcrUtils.ts:122-124); a push's commit is payload.after."},
    {"callback-pair", "in_progress and completed are sent by the same job, in_progress first",
     "COMPLETED without a prior IN_PROGRESS is refused with HTTP 400 "
     "(utils/redis_helper.py:361-445; callback_handler.py:162-167); the HUD pairs callbacks by "
     "check_run_id, one GitHub job (crcrUtils.ts:115)."},
    {"callback-always", "the completed callback runs on failure and cancellation",
     "A job left in_progress is marked timed_out by the relay's sweeper after "
     "ZOMBIE_TIMEOUT_SECONDS, 6 h (callback/cleanup_handler.py; utils/config.py:158-162)."},
    {"matrix-job-name", "each matrix leg reports under a job-name of its own",
     "job-name defaults to github.job, which every leg shares, and is part of the relay's "
     "state key (action.yml:66-76; utils/redis_helper.py:295-312)."},
    {"job-name-sweepable", "job-name has no ':' and is not all digits",
     "The sweeper splits its tracker entries on ':' and reads a numeric last part as the "
     "attempt (utils/redis_helper.py:483-506, 603-628): such a job is never swept."},
    {"oidc-permission", "jobs that call back may mint an OIDC token",
     "The action asks for a token with audience pytorch-cross-repo-ci-relay, which needs "
     "id-token: write (action.yml:3-6, 81-88); a job-level permissions block replaces the "
     "workflow's."},
    {"timeout", "a PR job's time limit stays under the sweeper's 6 h",
     "A job in_progress for 6 h is swept as timed_out; its real completed callback is then "
     "refused as a duplicate (callback/cleanup_handler.py; utils/redis_helper.py:425-426)."},
    {"nightly-delivery-id", "scheduled callbacks are completed-only self-reports with the SHA",
     "Nightly and periodic callbacks need event-type nightly|periodic and a delivery-id, the "
     "upstream commit tested; status must be completed (action.yml:28-42; "
     "report_callback.py:39-64; callback_handler.py:255-288)."},
    {"action-pinned", "the callback action is pinned to a commit",
     "test-infra #8173 broke every caller of @main for about 13 h on 2026-06-22/23 (fixed by "
     "#8209)."},
    {"callback-retry", "a refused callback is retried",
     "The action makes one attempt (retries removed in #8145) and the relay answers 429 past "
     "100 callbacks per repo per minute, with no Retry-After (utils/redis_helper.py:172-204)."},
    {"evidence", "completed callbacks carry an artifact URL, and test jobs their counts",
     "The HUD stores test-results' passed/failed/skipped/total and artifact-url only when "
     "given (crcrUtils.ts:158-177); without them a green cannot be checked."},
    {"false-green", "conclusion: job.status is not fed by steps that may fail quietly",
     "continue-on-error makes job.status success whatever the step did (TorchedHat "
     "pytorch-redhat-ci 3a1d897 fixed such a false green)."},
    {"concurrency", "PR runs are grouped by PR number",
     "Each synchronize dispatches again; a concurrency group keyed by "
     "client_payload.payload.pull_request.number with cancel-in-progress ends superseded runs "
     "(crcr-test crcr-l2-ci.yml:13-17)."},
};

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

bool isCommitSha(std::string_view ref)
{
    return ref.size() == 40 && std::all_of(ref.begin(), ref.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<long> minutesOf(const Text& text)
{
    long minutes = 0;
    const auto* begin = text.value.data();
    const auto* end = begin + text.value.size();
    const auto [stop, error] = std::from_chars(begin, end, minutes);
    if (error != std::errc() || stop != end)
        return std::nullopt;
    return minutes;
}

bool isPytorchCheckout(const Step& step)
{
    if (!step.uses.value.starts_with("actions/checkout@"))
        return false;
    const Text* repository = step.input("repository");
    return repository && lowerAscii(repository->value) == "pytorch/pytorch";
}

bool mentionsVerification(const Step& step)
{
    const std::string text = lowerAscii(step.name + " " + step.id + " " + step.run.value);
    return (contains(text, "verify") || contains(text, "validate") || contains(text, "rev-parse"))
           && (contains(text, "sha") || contains(text, "checkout") || contains(text, "head"));
}

class Linter {
public:
    explicit Linter(const Workflow& workflow) : m_w(workflow) {}

    WorkflowLint run()
    {
        dispatchFilter();
        exactSha();
        for (const Job& job : m_w.jobs) {
            callbackPair(job);
            callbackAlways(job);
            matrixJobName(job);
            oidcPermission(job);
            timeout(job);
            nightly(job);
            evidence(job);
            falseGreen(job);
        }
        actionPinned();
        callbackRetry();
        concurrency();
        std::stable_sort(m_out.findings.begin(), m_out.findings.end(),
                         [](const Finding& a, const Finding& b) { return a.line < b.line; });
        m_out.jobs = m_w.jobs.size();
        for (const Job& job : m_w.jobs)
            m_out.callbackSteps += callbacks(job).size();
        return std::move(m_out);
    }

private:
    void add(Severity severity, std::string_view check, std::size_t line, const Job* job,
             std::string message, std::string fix)
    {
        m_out.findings.push_back({severity, std::string(check), line,
                                  job ? job->key : std::string(), std::move(message),
                                  std::move(fix)});
    }

    static std::vector<const Step*> callbacks(const Job& job)
    {
        std::vector<const Step*> out;
        for (const Step& step : job.steps)
            if (step.isCallback())
                out.push_back(&step);
        return out;
    }

    bool anyPrCallback() const
    {
        for (const Job& job : m_w.jobs)
            for (const Step* step : callbacks(job))
                if (!step->selfReport())
                    return true;
        return false;
    }

    void dispatchFilter()
    {
        if (!m_w.repositoryDispatch)
            return;
        if (!m_w.dispatchTypesGiven) {
            add(Severity::Warning, "dispatch-filter", m_w.dispatchLine, nullptr,
                "repository_dispatch has no types: the workflow runs for every dispatch this "
                "repository receives, not only the relay's",
                "add `types: [pull_request]` (and `push` if push runs are wanted)");
            return;
        }
        for (const Text& type : m_w.dispatchTypes)
            if (type.value != "pull_request" && type.value != "push")
                add(Severity::Warning, "dispatch-filter", type.line, nullptr,
                    "repository_dispatch type '" + type.value
                        + "' is never sent by the relay, which dispatches pull_request and push "
                          "only",
                    "use pull_request or push; nightly runs start from `schedule:`");
    }

    void exactSha()
    {
        if (!m_w.repositoryDispatch || !anyPrCallback())
            return;
        bool sawCheckout = false;
        const Step* verifier = nullptr;
        for (const Job& job : m_w.jobs) {
            for (const Step& step : job.steps) {
                if (mentionsVerification(step) && !verifier)
                    verifier = &step;
                if (!isPytorchCheckout(step))
                    continue;
                sawCheckout = true;
                judgeCheckout(job, step);
            }
        }
        if (!sawCheckout)
            add(Severity::Info, "exact-sha", m_w.dispatchLine, nullptr,
                "no step checks out pytorch/pytorch with actions/checkout, so the doctor cannot "
                "tell which commit this workflow tests"
                    + std::string(verifier ? "; " + verifier->label() + " may verify it" : ""),
                "check out `${{ github.event.client_payload.payload.pull_request.head.sha }}`");
    }

    void judgeCheckout(const Job& job, const Step& step)
    {
        const Text* ref = step.input("ref");
        const std::string fix = "set `ref: ${{ "
                                "github.event.client_payload.payload.pull_request.head.sha }}` "
                                "(push: `payload.after`)";
        if (!ref) {
            add(Severity::Error, "exact-sha", step.line, &job,
                step.label()
                    + " checks out pytorch/pytorch's default branch, but the relay files the "
                      "result under the PR's head SHA",
                fix);
            return;
        }
        const std::string& value = ref->value;
        if (contains(value, "pull_request.head.sha") || contains(value, "payload.after"))
            return;
        const bool other = !contains(value, "${{") || contains(value, "base.sha")
                           || contains(value, "base.ref") || contains(value, "github.sha")
                           || contains(value, "github.ref");
        if (other) {
            add(Severity::Error, "exact-sha", ref->line, &job,
                step.label() + " checks out '" + value
                    + "', not the commit the relay files the result under (the PR's head SHA)",
                fix);
            return;
        }
        add(Severity::Info, "exact-sha", ref->line, &job,
            step.label() + " checks out '" + value
                + "': the doctor cannot tell whether that is the dispatched head SHA",
            fix);
    }

    void callbackPair(const Job& job)
    {
        const Step* inProgress = nullptr;
        const Step* completed = nullptr;
        for (const Step* step : callbacks(job)) {
            if (step->selfReport())
                continue;
            const std::string status = step->status();
            if (status == "in_progress" && !inProgress)
                inProgress = step;
            else if (status == "completed" && !completed)
                completed = step;
            else if (status != "in_progress" && status != "completed")
                return; // an expression: cannot pair
        }
        if (inProgress && !completed)
            add(Severity::Error, "callback-pair", inProgress->line, &job,
                "job '" + job.key
                    + "' reports in_progress but never completed: its row stays in_progress "
                      "until the relay's sweeper marks it timed_out after 6 h"
                    + elsewhere(job, "completed"),
                "add a completed callback with `if: always()` at the end of the same job");
        if (completed && !inProgress)
            add(Severity::Error, "callback-pair", completed->line, &job,
                "job '" + job.key
                    + "' reports completed without in_progress: the relay refuses it with "
                      "HTTP 400 (COMPLETED without prior IN_PROGRESS) and the result never "
                      "reaches the HUD"
                    + elsewhere(job, "in_progress"),
                "send `status: in_progress` from the same job before its work starts");
        if (!inProgress || !completed)
            return;
        const Text* startName = inProgress->input("job-name");
        const Text* endName = completed->input("job-name");
        const std::string startKey = startName ? startName->value : "${{ github.job }}";
        const std::string endKey = endName ? endName->value : "${{ github.job }}";
        if (startKey != endKey) {
            add(Severity::Error, "callback-pair", endName ? endName->line : completed->line, &job,
                "job '" + job.key + "' sends in_progress as '" + startKey + "' and completed as '"
                    + endKey
                    + "': the relay keys callbacks by job-name, so it refuses the completed one "
                      "(HTTP 400) and the row stays in_progress",
                "give both callbacks the same job-name");
            return;
        }
        if (completed->line < inProgress->line) {
            add(Severity::Error, "callback-pair", inProgress->line, &job,
                "job '" + job.key
                    + "' sends in_progress after completed: both are refused (HTTP 400)",
                "move the in_progress callback to the start of the job");
            return;
        }
        if (!contains(completed->condition.value, "always()"))
            return;
        for (const Step& step : job.steps) {
            if (&step == inProgress)
                break;
            if (step.run.present() && !step.continueOnError
                && !contains(step.condition.value, "always()")) {
                add(Severity::Warning, "callback-pair", step.line, &job,
                    "if " + step.label()
                        + " fails, the in_progress callback is skipped and the always() "
                          "completed callback is refused (HTTP 400): the failure never reaches "
                          "the HUD",
                    "send in_progress before any step that can fail");
                return;
            }
        }
    }

    // " (job 'x' sends completed: ...)" when another job sends the missing half.
    std::string elsewhere(const Job& job, std::string_view status) const
    {
        for (const Job& other : m_w.jobs) {
            if (&other == &job)
                continue;
            for (const Step* step : callbacks(other))
                if (!step->selfReport() && step->status() == status)
                    return "; job '" + other.key + "' sends " + std::string(status)
                           + ", but the HUD pairs callbacks by check_run_id, so both must "
                             "come from one job";
        }
        return {};
    }

    void callbackAlways(const Job& job)
    {
        bool reported[2] = {false, false}; // once per job for PR callbacks, once for self-reports
        for (const Step* step : callbacks(job)) {
            if (step->status() != "completed" || contains(step->condition.value, "always()")
                || reported[step->selfReport()])
                continue;
            reported[step->selfReport()] = true;
            const std::size_t line = step->condition.present() ? step->condition.line : step->line;
            const std::string what =
                step->selfReport()
                    ? "a failed or cancelled run sends nothing, so the HUD never shows it"
                    : "a failed or cancelled job skips it, and its row stays in_progress until "
                      "the relay sweeps it as timed_out after 6 h";
            add(Severity::Error, "callback-always", line, &job,
                "the completed callback " + step->label() + " does not run on failure: " + what,
                "give it `if: always()` (and report `${{ job.status }}` or the tests' verdict)");
        }
    }

    void matrixJobName(const Job& job)
    {
        bool reported = false; // once per job: its legs share one name or they do not
        for (const Step* step : callbacks(job)) {
            const Text* name = step->input("job-name");
            if (job.matrix && job.matrixLegs != 1 && !reported
                && (!name || !contains(name->value, "matrix."))) {
                reported = true;
                add(Severity::Error, "matrix-job-name", name ? name->line : step->line, &job,
                    "matrix job '" + job.key + "' ("
                        + (job.matrixLegs > 1 ? std::to_string(job.matrixLegs) + " legs"
                                              : std::string("its legs"))
                        + ") reports every leg under one job-name: after the first, the "
                          "relay refuses their callbacks (HTTP 400) and on L3/L4 they share "
                          "one check run",
                    "pass `job-name: " + job.key + " (${{ matrix.<key> }})` on every callback");
            }
            if (!name || contains(name->value, "${{"))
                continue;
            const bool digits = std::all_of(name->value.begin(), name->value.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
            if (contains(name->value, ":") || digits)
                add(Severity::Warning, "job-name-sweepable", name->line, &job,
                    "job-name '" + name->value
                        + "' has a ':' or only digits: the relay's sweeper cannot read it "
                          "back, so if the job dies the row stays in_progress for good",
                    "use a job-name without ':' that is not a number");
        }
    }

    void oidcPermission(const Job& job)
    {
        const auto steps = callbacks(job);
        if (steps.empty())
            return;
        const Permissions& own = job.permissions;
        const Permissions& effective = own.present ? own : m_w.permissions;
        if (effective.idTokenWrite)
            return;
        if (!effective.present && m_w.workflowCall) {
            add(Severity::Info, "oidc-permission", job.line, &job,
                "job '" + job.key
                    + "' calls back from a called workflow: the calling job must grant "
                      "id-token: write",
                "check the caller's `permissions:`");
            return;
        }
        const std::string why =
            own.present && m_w.permissions.idTokenWrite
                ? "its own permissions block replaces the workflow's, which had id-token: write"
                : "no permissions block grants id-token: write";
        add(Severity::Error, "oidc-permission", own.present ? own.line : job.line, &job,
            "job '" + job.key + "' cannot mint the OIDC token the relay requires (" + why
                + "): every callback fails",
            "add `permissions: id-token: write` (and what else the job needs)");
    }

    void timeout(const Job& job)
    {
        bool tracked = false;
        for (const Step* step : callbacks(job))
            tracked = tracked || (!step->selfReport() && step->status() == "in_progress");
        const auto minutes = minutesOf(job.timeoutMinutes);
        if (!tracked || !minutes || *minutes <= kSweepMinutes)
            return;
        add(Severity::Warning, "timeout", job.timeoutMinutes.line, &job,
            "job '" + job.key + "' may run " + std::to_string(*minutes)
                + " minutes, but the relay sweeps a job in_progress for 6 h as timed_out and "
                  "then refuses its real completed callback",
            "keep timeout-minutes at 360 or less, or split the job");
    }

    void nightly(const Job& job)
    {
        for (const Step* step : callbacks(job)) {
            if (!step->selfReport()) {
                if (m_w.schedule && !m_w.repositoryDispatch)
                    add(Severity::Error, "nightly-delivery-id", step->line, &job,
                        step->label()
                            + " has no event-type in a scheduled workflow: a scheduled run has "
                              "no dispatch payload, so the action fails",
                        "set `event-type: nightly` and `delivery-id:` the upstream SHA tested");
                continue;
            }
            const Text* type = step->input("event-type");
            if (type->value != "nightly" && type->value != "periodic"
                && !contains(type->value, "${{"))
                add(Severity::Error, "nightly-delivery-id", type->line, &job,
                    "event-type '" + type->value
                        + "': the action accepts only nightly or periodic here and exits",
                    "use `event-type: nightly` (or periodic)");
            if (step->status() != "completed" && !contains(step->status(), "${{"))
                add(Severity::Error, "nightly-delivery-id", step->line, &job,
                    step->label()
                        + " sends a nightly callback that is not completed: the action and "
                          "the relay refuse it (HTTP 400)",
                    "send one `status: completed` callback, with `if: always()`");
            const Text* id = step->input("delivery-id");
            if (!id) {
                add(Severity::Error, "nightly-delivery-id", step->line, &job,
                    step->label()
                        + " has event-type but no delivery-id: the action exits (both must be "
                          "set together)",
                    "set `delivery-id:` to the upstream commit the run tested");
                continue;
            }
            if (contains(id->value, "github.sha"))
                add(Severity::Error, "nightly-delivery-id", id->line, &job,
                    "delivery-id is github.sha, this repository's own commit, not the upstream "
                    "commit tested: the HUD files the nightly under a SHA pytorch does not have",
                    "pass the pytorch commit the job checked out or built");
            else if (!contains(id->value, "${{") && !isCommitSha(lowerAscii(id->value)))
                add(Severity::Warning, "nightly-delivery-id", id->line, &job,
                    "delivery-id '" + id->value
                        + "' is fixed text, not a commit: every nightly lands on one row",
                    "pass the upstream commit tested, from a step output");
        }
    }

    // A job runs tests when a step says so (pytest, run_test.py, "Test"); a
    // build job's callback has no counts to send.
    static bool runsTests(const Job& job)
    {
        return std::any_of(job.steps.begin(), job.steps.end(), [](const Step& step) {
            return !step.isCallback()
                   && contains(lowerAscii(step.name + " " + step.id + " " + step.run.value),
                               "test");
        });
    }

    void evidence(const Job& job)
    {
        for (const Step* step : callbacks(job)) {
            if (step->status() != "completed")
                continue;
            std::vector<std::string> missing;
            if (!step->input("test-results") && runsTests(job))
                missing.push_back("test-results");
            if (!step->input("artifact-url"))
                missing.push_back("artifact-url");
            if (missing.empty())
                continue;
            add(Severity::Warning, "evidence", step->line, &job,
                step->label() + " sends no "
                    + (missing.size() == 2 ? missing[0] + " or " + missing[1] : missing[0])
                    + ": RelayHUD cannot check what a green covered",
                "pass the JUnit counts as test-results and the run's artifacts as artifact-url");
        }
    }

    void falseGreen(const Job& job)
    {
        for (const Step* step : callbacks(job)) {
            const Text* conclusion = step->input("conclusion");
            if (step->status() != "completed" || !conclusion
                || !contains(conclusion->value, "job.status"))
                continue;
            for (const Step& earlier : job.steps) {
                if (earlier.line >= step->line)
                    break;
                if (earlier.continueOnError && !earlier.isCallback()) {
                    add(Severity::Warning, "false-green", conclusion->line, &job,
                        "the conclusion is job.status, but " + earlier.label()
                            + " has continue-on-error: when it fails the job stays green and "
                              "so does the HUD",
                        "derive the conclusion from the tests' results or the step's outcome");
                    break;
                }
            }
        }
    }

    void actionPinned()
    {
        for (const Job& job : m_w.jobs)
            for (const Step* step : callbacks(job))
                if (!isCommitSha(step->callbackRef()))
                    add(Severity::Warning, "action-pinned", step->uses.line, &job,
                        "the callback action is used at @" + step->callbackRef()
                            + ": a change upstream (as #8173 did for 13 h) breaks every "
                              "callback at once",
                        "pin a reviewed commit: `cross-repo-ci-relay-callback@<40-hex SHA>`");
    }

    void callbackRetry()
    {
        std::size_t perRun = 0;
        const Step* first = nullptr;
        bool retried = false;
        for (const Job& job : m_w.jobs) {
            const auto steps = callbacks(job);
            perRun += steps.size() * std::max<std::size_t>(job.matrixLegs, 1);
            for (const Step* step : steps) {
                first = first ? first : step;
                const std::string& when = step->condition.value;
                retried = retried || contains(when, "outcome == 'failure'")
                          || contains(when, "failure()");
            }
        }
        if (!first || retried)
            return;
        add(Severity::Warning, "callback-retry", first->line, nullptr,
            "nothing retries a refused callback, and the action tries once: past 100 callbacks "
            "per minute per repository the relay answers 429 and the result is lost (this "
            "workflow sends about "
                + std::to_string(perRun) + " per run)",
            "add a second callback step with `if: steps.<id>.outcome == 'failure'` after a "
            "pause");
    }

    void concurrency()
    {
        if (!m_w.repositoryDispatch || !anyPrCallback())
            return;
        const auto keyed = [](const Text& group) {
            return contains(group.value, "pull_request.number");
        };
        if (keyed(m_w.concurrency))
            return;
        for (const Job& job : m_w.jobs)
            if (keyed(job.concurrency))
                return;
        add(Severity::Info, "concurrency", m_w.dispatchLine, nullptr,
            "no concurrency group keyed by the PR number: a push to the PR starts another run "
            "beside the one it supersedes",
            "add `concurrency: {group: ...-${{ "
            "github.event.client_payload.payload.pull_request.number }}, cancel-in-progress: "
            "true}`");
    }

    const Workflow& m_w;
    WorkflowLint m_out;
};

} // namespace

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "info";
}

const std::vector<CheckInfo>& workflowChecks() { return kChecks; }

bool WorkflowLint::hasError() const
{
    return std::any_of(findings.begin(), findings.end(),
                       [](const Finding& f) { return f.severity == Severity::Error; });
}

Result<WorkflowLint> lintWorkflow(std::string_view text)
{
    auto workflow = readWorkflow(text);
    if (!workflow)
        return workflow.error();
    return Linter(*workflow).run();
}

} // namespace relayhud::doctor
