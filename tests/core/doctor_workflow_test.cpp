// The integration doctor's workflow lint (issue 20) on pytorch/crcr-test's own
// L2 workflow (../shared/corpus/workflows/) and on copies of it with one
// mistake planted each: the copy must add exactly that check, as an error or
// a warning (concurrency: a note), and nothing else.
#include "relayhud/doctor/workflow_lint.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

using namespace relayhud::doctor;
// config:: has a Severity and a Finding of its own, which another test file's
// using-directive can bring into a unity batch with this one.
using relayhud::doctor::Finding;
using relayhud::doctor::Severity;

std::string corpusWorkflow()
{
    std::ifstream in(std::string(RELAYHUD_CORPUS_DIR)
                     + "/workflows/pytorch__crcr-test__.github__workflows__oot-l2-ci.yml");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// `from` replaced once by `to`; the test fails when `from` is not there.
std::string planted(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "not in the workflow: " << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

using Counts = std::map<std::pair<Severity, std::string>, int>;

Counts countsOf(const WorkflowLint& lint)
{
    Counts counts;
    for (const Finding& f : lint.findings)
        ++counts[{f.severity, f.check}];
    return counts;
}

WorkflowLint lintOk(const std::string& text)
{
    auto lint = lintWorkflow(text);
    EXPECT_TRUE(lint) << lint.message();
    return lint ? *lint : WorkflowLint{};
}

// The findings the planted copy has beyond the corpus's own.
Counts added(const std::string& text)
{
    const Counts before = countsOf(lintOk(corpusWorkflow()));
    Counts after = countsOf(lintOk(text));
    for (auto it = after.begin(); it != after.end();) {
        const auto old = before.find(it->first);
        const int extra = it->second - (old == before.end() ? 0 : old->second);
        if (extra <= 0)
            it = after.erase(it);
        else
            (it++)->second = extra;
    }
    return after;
}

std::string describe(const Counts& counts)
{
    std::string out;
    for (const auto& [key, n] : counts)
        out += std::string(severityName(key.first)) + " " + key.second + " x" + std::to_string(n)
               + "; ";
    return out.empty() ? "nothing" : out;
}

const Finding* findingOf(const WorkflowLint& lint, const std::string& check)
{
    for (const Finding& f : lint.findings)
        if (f.check == check)
            return &f;
    return nullptr;
}

const std::string kInProgressStep =
    "      - name: L2 — report in_progress to relay\n"
    "        id: in_progress\n"
    "        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@main\n"
    "        with:\n"
    "          status: in_progress\n";

TEST(DoctorWorkflow, TheCorpusWorkflowHasNoError)
{
    const WorkflowLint lint = lintOk(corpusWorkflow());
    for (const Finding& f : lint.findings)
        EXPECT_NE(f.severity, Severity::Error) << f.line << " " << f.check << ": " << f.message;
    EXPECT_EQ(lint.callbackSteps, 2u);
    EXPECT_EQ(lint.jobs, 2u);
    // What it does warn about, each a fact of the relay: @main twice, no retry, and a
    // validation step that can fail before in_progress is sent.
    const Counts expected = {{{Severity::Warning, "action-pinned"}, 2},
                             {{Severity::Warning, "callback-retry"}, 1},
                             {{Severity::Warning, "callback-pair"}, 1}};
    EXPECT_EQ(countsOf(lint), expected) << describe(countsOf(lint));
    const Finding* early = findingOf(lint, "callback-pair");
    ASSERT_NE(early, nullptr);
    EXPECT_EQ(early->line, 62u) << "the validate step";
    EXPECT_EQ(early->job, "l2-critical");
}

struct Plant {
    const char* check;
    Severity severity;
    std::string from;
    std::string to;
    std::string from2 = {}; // a second edit, when the mistake takes two
    std::string to2 = {};
};

TEST(DoctorWorkflow, EachPlantedMistakeAddsExactlyItsCheck)
{
    const std::string completedIf = "        id: completed\n"
                                    "        if: always()\n";
    const Plant plants[] = {
        {"dispatch-filter", Severity::Warning,
         "  repository_dispatch:\n    types:\n      - pull_request\n", "  repository_dispatch:\n"},
        {"exact-sha", Severity::Error,
         "          ref: ${{ github.event.client_payload.payload.pull_request.head.sha }}\n",
         "          ref: main\n"},
        {"callback-pair", Severity::Error, kInProgressStep, ""},
        {"callback-always", Severity::Error, completedIf, "        id: completed\n"},
        {"matrix-job-name", Severity::Error, "  l2-critical:\n",
         "  l2-critical:\n    strategy:\n      matrix:\n        shard: [1, 2]\n"},
        {"oidc-permission", Severity::Error, "  id-token: write\n", ""},
        {"timeout", Severity::Warning, "  l2-critical:\n",
         "  l2-critical:\n    timeout-minutes: 480\n"},
        {"nightly-delivery-id", Severity::Error,
         "  repository_dispatch:\n    types:\n      - pull_request\n",
         "  schedule:\n    - cron: '30 8 * * *'\n"},
        {"evidence", Severity::Warning,
         "          test-results: ${{ steps.health_metrics.outputs.test_results }}\n", ""},
        {"false-green", Severity::Warning,
         "      - name: L2 — run deterministic smoke checks\n        id: smoke\n",
         "      - name: L2 — run deterministic smoke checks\n        id: smoke\n"
         "        continue-on-error: true\n"},
        {"job-name-sweepable", Severity::Warning, "          status: in_progress\n",
         "          status: in_progress\n          job-name: \"l2:critical\"\n",
         "          status: completed\n",
         "          status: completed\n          job-name: \"l2:critical\"\n"},
        {"callback-pair", Severity::Error, "          status: completed\n",
         "          status: completed\n          job-name: l2-critical-done\n"},
        {"concurrency", Severity::Info,
         "  group: >-\n"
         "    oot-l2-${{ github.event.client_payload.payload.repository.full_name }}-${{\n"
         "    github.event.client_payload.payload.pull_request.number || github.run_id }}\n",
         "  group: oot-l2-${{ github.run_id }}\n"},
    };
    for (const Plant& plant : plants) {
        std::string text = planted(corpusWorkflow(), plant.from, plant.to);
        if (!plant.from2.empty())
            text = planted(text, plant.from2, plant.to2);
        const Counts extra = added(text);
        ASSERT_FALSE(extra.empty()) << plant.check << ": the plant added nothing";
        for (const auto& [key, n] : extra)
            EXPECT_EQ(key, std::make_pair(plant.severity, std::string(plant.check)))
                << plant.check << " planted; added: " << describe(extra);
    }
}

TEST(DoctorWorkflow, WhatTheCorpusWarnsAboutGoesWhenFixed)
{
    std::string text = corpusWorkflow();
    const std::string sha = "61a77570f45416dc425c17d4a648376541a84732";
    for (std::size_t at;
         (at = text.find("cross-repo-ci-relay-callback@main")) != std::string::npos;)
        text.replace(at, 33, "cross-repo-ci-relay-callback@" + sha);
    text = planted(text, "      - name: L2 — report completed with health metrics to relay/HUD\n",
                   "      - name: L2 — report completed again if refused\n"
                   "        if: always() && steps.completed.outcome == 'failure'\n"
                   "        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@"
                       + sha
                       + "\n"
                         "        with:\n"
                         "          status: completed\n"
                         "          test-results: '{}'\n"
                         "          artifact-url: https://example.org/run\n"
                         "      - name: L2 — report completed with health metrics to relay/HUD\n");
    const WorkflowLint lint = lintOk(text);
    EXPECT_EQ(findingOf(lint, "action-pinned"), nullptr);
    EXPECT_EQ(findingOf(lint, "callback-retry"), nullptr);
}

TEST(DoctorWorkflow, MatrixLegsWithTheirOwnJobNamesAndANightlyAreSound)
{
    const std::string text = R"yaml(name: L3 probes
on:
  repository_dispatch:
    types: [pull_request]
  schedule:
    - cron: '30 8 * * *'
permissions:
  id-token: write
concurrency:
  group: l3-${{ github.event.client_payload.payload.pull_request.number || github.run_id }}
  cancel-in-progress: true
jobs:
  legs:
    if: github.event_name == 'repository_dispatch'
    strategy:
      matrix:
        variant: [1, 2, 3]
        device: [a, b]
    runs-on: ubuntu-latest
    steps:
      - uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@61a77570f45416dc425c17d4a648376541a84732
        with:
          status: in_progress
          job-name: legs-${{ matrix.variant }}-${{ matrix.device }}
      - uses: actions/checkout@v4
        with:
          repository: pytorch/pytorch
          ref: ${{ github.event.client_payload.payload.pull_request.head.sha }}
      - run: ./test.sh
      - id: done
        if: always()
        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@61a77570f45416dc425c17d4a648376541a84732
        with:
          status: completed
          conclusion: ${{ job.status }}
          job-name: legs-${{ matrix.variant }}-${{ matrix.device }}
          test-results: ${{ steps.counts.outputs.json }}
          artifact-url: ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}
      - if: always() && steps.done.outcome == 'failure'
        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@61a77570f45416dc425c17d4a648376541a84732
        with:
          status: completed
          conclusion: ${{ job.status }}
          job-name: legs-${{ matrix.variant }}-${{ matrix.device }}
          test-results: ${{ steps.counts.outputs.json }}
          artifact-url: ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}
  nightly:
    if: github.event_name == 'schedule'
    runs-on: ubuntu-latest
    steps:
      - id: sha
        run: git ls-remote https://github.com/pytorch/pytorch main | sed 's/^/sha=/; s/\t.*//' >> "$GITHUB_OUTPUT"
      - if: always()
        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@61a77570f45416dc425c17d4a648376541a84732
        with:
          status: completed
          conclusion: ${{ job.status }}
          event-type: nightly
          delivery-id: ${{ steps.sha.outputs.sha }}
          test-results: ${{ steps.counts.outputs.json }}
          artifact-url: ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}
)yaml";
    const WorkflowLint lint = lintOk(text);
    for (const Finding& f : lint.findings)
        ADD_FAILURE() << severityName(f.severity) << " " << f.check << " at " << f.line << ": "
                      << f.message;
    EXPECT_EQ(lint.callbackSteps, 4u);
}

// A scheduled workflow's callback, each way it goes wrong, and what the
// nightly-delivery-id error must say.
struct NightlyMistake {
    const char* name; // the test's
    std::string with; // the callback step's `with:` lines
    std::string says;
};

class DoctorNightly : public ::testing::TestWithParam<NightlyMistake> {};

TEST_P(DoctorNightly, TheMistakeIsNamed)
{
    const std::string head = "on:\n  schedule:\n    - cron: '0 4 * * *'\n"
                             "permissions:\n  id-token: write\njobs:\n  n:\n    steps:\n"
                             "      - if: always()\n"
                             "        uses: pytorch/test-infra/.github/actions/"
                             "cross-repo-ci-relay-callback@main\n        with:\n";
    const WorkflowLint lint = lintOk(head + GetParam().with);
    const Finding* found = nullptr;
    for (const Finding& f : lint.findings)
        if (f.check == "nightly-delivery-id" && f.severity == Severity::Error
            && f.message.find(GetParam().says) != std::string::npos)
            found = &f;
    EXPECT_NE(found, nullptr) << GetParam().says;
}

INSTANTIATE_TEST_SUITE_P(
    DoctorWorkflow, DoctorNightly,
    ::testing::Values(NightlyMistake{"NoEventType", "          status: completed\n",
                                     "has no event-type in a scheduled workflow"},
                      NightlyMistake{"NoDeliveryId",
                                     "          status: completed\n          event-type: nightly\n",
                                     "but no delivery-id"},
                      NightlyMistake{
                          "NotCompleted",
                          "          status: in_progress\n          event-type: nightly\n"
                          "          delivery-id: ${{ steps.sha.outputs.sha }}\n",
                          "not completed"},
                      NightlyMistake{"PushEventType",
                                     "          status: completed\n          event-type: push\n"
                                     "          delivery-id: ${{ steps.sha.outputs.sha }}\n",
                                     "accepts only nightly or periodic"},
                      NightlyMistake{"OwnCommitAsDeliveryId",
                                     "          status: completed\n          event-type: nightly\n"
                                     "          delivery-id: ${{ github.sha }}\n",
                                     "this repository's own commit"}),
    [](const ::testing::TestParamInfo<NightlyMistake>& test) {
        return std::string(test.param.name);
    });

TEST(DoctorWorkflow, CallbacksSplitAcrossJobsAreNamedAsSuch)
{
    const std::string text =
        "on:\n  repository_dispatch:\n    types: [pull_request]\n"
        "permissions:\n  id-token: write\njobs:\n"
        "  start:\n    steps:\n"
        "      - uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@main\n"
        "        with:\n          status: in_progress\n"
        "  finish:\n    needs: start\n    steps:\n"
        "      - if: always()\n"
        "        uses: pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@main\n"
        "        with:\n          status: completed\n";
    const WorkflowLint lint = lintOk(text);
    int pairs = 0;
    for (const Finding& f : lint.findings)
        if (f.check == "callback-pair" && f.severity == Severity::Error) {
            ++pairs;
            EXPECT_NE(f.message.find("both must come from one job"), std::string::npos)
                << f.message;
        }
    EXPECT_EQ(pairs, 2);
}

TEST(DoctorWorkflow, WhatIsNoWorkflowIsAnError)
{
    EXPECT_FALSE(lintWorkflow("just: a map\n"));
    EXPECT_FALSE(lintWorkflow("- a\n- list\n"));
    EXPECT_FALSE(lintWorkflow("on: [push\n"));
    EXPECT_FALSE(lintWorkflow("on: push\njobs: {}\n---\non: push\njobs: {}\n"));
    const auto bomb = lintWorkflow("a: &a [x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                   "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\non: push\njobs: {}\n");
    ASSERT_FALSE(bomb);
    EXPECT_NE(bomb.message().find("aliases"), std::string::npos) << bomb.message();
}

} // namespace
