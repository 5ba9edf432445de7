#include "sim_workflows.h"

#include "sim_sigv4.h"

#include <openssl/evp.h>

#include <algorithm>

namespace relayhud::sim {
namespace {

// The callback action, pinned as the doctor asks (test-infra @61a77570).
constexpr const char* kCallback = "pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@"
                                  "61a77570f45416dc425c17d4a648376541a84732";
constexpr const char* kHeadSha = "${{ github.event.client_payload.payload.pull_request.head.sha }}";
constexpr const char* kRunUrl =
    "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}";
constexpr const char* kLegName = "test (${{ matrix.config }}, ${{ matrix.shard }}, "
                                 "${{ matrix.num_shards }}, ${{ matrix.runner }})";

// A YAML job key from a job's name: "xfail-probe", "build".
std::string jobKey(const std::string& name)
{
    std::string key;
    for (const char c : name) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                          || c == '-' || c == '_';
        if (word)
            key += c;
        else if (!key.empty() && key.back() != '-')
            key += '-';
    }
    while (!key.empty() && key.back() == '-')
        key.pop_back();
    return key.empty() ? "job" : key;
}

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

struct Callbacks {
    std::string jobName;   // "" = none (every leg sends github.job)
    bool always = true;    // the completed callback runs on failure
    bool completed = true; // a probe that must time out sends none
};

void inProgress(std::string& out, const Callbacks& cb)
{
    out += "      - name: Report in_progress to the relay\n"
           "        uses: "
           + std::string(kCallback)
           + "\n"
             "        with:\n"
             "          status: in_progress\n";
    if (!cb.jobName.empty())
        out += "          job-name: " + quoted(cb.jobName) + "\n";
}

// The completed callback, and a second try when the relay refused the first
// (the action tries once; a 429 would lose the result).
void completed(std::string& out, const Callbacks& cb, bool tests)
{
    if (!cb.completed)
        return;
    const auto step = [&](const std::string& name, const std::string& condition, bool first) {
        out += "      - name: " + name + "\n";
        if (first)
            out += "        id: report\n        continue-on-error: true\n";
        if (!condition.empty())
            out += "        if: " + condition + "\n";
        out += "        uses: " + std::string(kCallback)
               + "\n"
                 "        with:\n"
                 "          status: completed\n"
                 "          conclusion: ${{ steps.tests.outputs.conclusion || job.status }}\n";
        if (!cb.jobName.empty())
            out += "          job-name: " + quoted(cb.jobName) + "\n";
        if (tests)
            out += "          test-results: ${{ steps.tests.outputs.counts }}\n";
        out += "          artifact-url: " + std::string(kRunUrl) + "\n";
    };
    step("Report completed to the relay", cb.always ? "always()" : "", true);
    step("Report completed again if the relay refused it",
         std::string(cb.always ? "always() && " : "") + "steps.report.outcome == 'failure'", false);
}

// The backend that checks out the default branch names no ref.
void checkout(std::string& out, const BackendSpec& backend)
{
    if (backend.checksOutDefaultBranch) {
        out += "      - name: Check out PyTorch\n"
               "        uses: actions/checkout@v4\n"
               "        with:\n"
               "          repository: pytorch/pytorch\n"
               "          path: pytorch\n";
        return;
    }
    out += "      - name: Check out PyTorch at the dispatched head\n"
           "        uses: actions/checkout@v4\n"
           "        with:\n"
           "          repository: pytorch/pytorch\n"
           "          ref: "
           + std::string(kHeadSha)
           + "\n"
             "          path: pytorch\n";
}

std::string header(const std::string& name, const std::string& concurrencyKey)
{
    return "name: " + name
           + "\n"
             "on:\n"
             "  repository_dispatch:\n"
             "    types: [pull_request]\n"
             "permissions:\n"
             "  contents: read\n"
             "  id-token: write\n"
             "concurrency:\n"
             "  group: "
           + concurrencyKey
           + "-${{ github.event.client_payload.payload.pull_request.number || github.run_id }}\n"
             "  cancel-in-progress: true\n"
             "jobs:\n";
}

// One workflow of PR dispatches: each build job on its own, the test legs as
// one matrix job. The zombie's backend: its test legs' completed callback
// does not run when a leg dies. The wrong SHA's: no `ref:` on its checkout.
SimWorkflowFile prWorkflow(const BackendSpec& backend, const WorkflowSpec& workflow, bool zombie)
{
    std::string out = header(workflow.name, jobKey(workflow.name));
    std::vector<const JobSpec*> legs;
    std::string firstJob;
    for (const JobSpec& job : workflow.jobs) {
        if (job.kind == JobKind::Test) {
            legs.push_back(&job);
            continue;
        }
        const std::string key = jobKey(job.name);
        firstJob = firstJob.empty() ? key : firstJob;
        Callbacks cb{job.name, true, job.name.find("xtimeout") == std::string::npos};
        out += "  " + key + ":\n    runs-on: ubuntu-latest\n    timeout-minutes: 240\n    steps:\n";
        inProgress(out, cb);
        if (!backend.probe) {
            checkout(out, backend);
            out += "      - name: Build\n        run: ./ci/build.sh pytorch\n";
        } else {
            out += "      - name: Probe\n        run: ./probes/" + key + ".sh\n";
        }
        completed(out, cb, false);
    }
    if (!legs.empty()) {
        const bool shared = !backend.sharedTestJobName.empty();
        Callbacks cb{shared ? "" : kLegName, !zombie, true};
        out += "  test:\n";
        if (!firstJob.empty())
            out += "    needs: " + firstJob + "\n";
        out += "    runs-on: ${{ matrix.runner }}\n    timeout-minutes: 240\n    strategy:\n"
               "      fail-fast: false\n      matrix:\n        include:\n";
        for (const JobSpec* leg : legs)
            out += "          - {config: " + leg->config + ", shard: " + std::to_string(leg->shard)
                   + ", num_shards: " + std::to_string(leg->numShards) + ", runner: " + leg->runner
                   + "}\n";
        out += "    steps:\n";
        inProgress(out, cb);
        checkout(out, backend);
        out += "      - name: Test\n"
               "        id: tests\n"
               "        run: ./ci/test.sh pytorch \"${{ matrix.config }}\" ${{ matrix.shard }} "
               "${{ matrix.num_shards }}\n";
        completed(out, cb, true);
    }
    return {jobKey(workflow.name) + ".yml", out};
}

// The nightly: one completed self-report per job, the upstream commit as
// its delivery-id.
SimWorkflowFile nightlyWorkflow()
{
    std::string out = "name: nightly\n"
                      "on:\n"
                      "  schedule:\n"
                      "    - cron: '0 4 * * *'\n"
                      "  workflow_dispatch:\n"
                      "permissions:\n"
                      "  contents: read\n"
                      "  id-token: write\n"
                      "jobs:\n"
                      "  nightly:\n"
                      "    runs-on: ubuntu-latest\n"
                      "    timeout-minutes: 240\n"
                      "    steps:\n"
                      "      - name: Resolve the nightly's upstream commit\n"
                      "        id: sha\n"
                      "        run: ./ci/nightly-sha.sh >> \"$GITHUB_OUTPUT\"\n"
                      "      - name: Check out PyTorch at it\n"
                      "        uses: actions/checkout@v4\n"
                      "        with:\n"
                      "          repository: pytorch/pytorch\n"
                      "          ref: ${{ steps.sha.outputs.sha }}\n"
                      "          path: pytorch\n"
                      "      - name: Test\n"
                      "        id: tests\n"
                      "        run: ./ci/test.sh pytorch nightly\n"
                      "      - name: Report the nightly to the relay\n"
                      "        id: report\n"
                      "        continue-on-error: true\n"
                      "        if: always()\n";
    const std::string report = "        uses: " + std::string(kCallback)
                               + "\n"
                                 "        with:\n"
                                 "          status: completed\n"
                                 "          conclusion: ${{ steps.tests.outputs.conclusion || "
                                 "job.status }}\n"
                                 "          event-type: nightly\n"
                                 "          delivery-id: ${{ steps.sha.outputs.sha }}\n"
                                 "          test-results: ${{ steps.tests.outputs.counts }}\n"
                                 "          artifact-url: "
                               + kRunUrl + "\n";
    out += report;
    out += "      - name: Report the nightly again if the relay refused it\n"
           "        if: always() && steps.report.outcome == 'failure'\n";
    out += report;
    return {"nightly.yml", out};
}

} // namespace

std::vector<SimWorkflowFile> workflowFiles(const BackendSpec& backend, const SimStories& stories)
{
    std::vector<SimWorkflowFile> files;
    if (!backend.reports())
        return files;
    const bool zombie = backend.backend.repo == stories.zombieBackend;
    for (const WorkflowSpec& workflow : backend.workflows)
        files.push_back(prWorkflow(backend, workflow, zombie));
    if (backend.nightly)
        files.push_back(nightlyWorkflow());
    std::sort(files.begin(), files.end(),
              [](const SimWorkflowFile& a, const SimWorkflowFile& b) { return a.name < b.name; });
    return files;
}

std::string gitBlobSha(std::string_view bytes)
{
    const std::string object =
        "blob " + std::to_string(bytes.size()) + std::string(1, '\0') + std::string(bytes);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(object.data(), object.size(), digest, &length, EVP_sha1(), nullptr);
    return toHex(std::string_view(reinterpret_cast<const char*>(digest), length));
}

} // namespace relayhud::sim
