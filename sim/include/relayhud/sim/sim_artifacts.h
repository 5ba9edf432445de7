#pragma once
// What the simulated downstream CI leaves behind: per backend a store for its
// test reports (GitHub Actions artifacts, an S3 bucket, plain HTTPS files, or
// none), per finished test job pytest JUnit reports drawn from a stable test
// universe of real PyTorch tests, and per job a raw GitHub Actions log that
// tells the same story. Everything is a pure function of (seed, row), so tests
// compare what the server serves with this ground truth.
#include "relayhud/sim/sim_dataset.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::sim {

enum class SimStore : std::uint8_t {
    None,            // no artifacts (the HUD row has no artifact_url)
    GitHubArtifacts, // one zip per job: test-reports-runattempt{N}-test-{config}-..._{job id}
    S3Bucket,        // s3://ascend-pytorch-ci/{prefix}/ holding a few .xml reports
    HttpsReportGz,   // {base}/files/{o}/{r}/{run}/{attempt}/{job}/report.xml.gz
    HttpsTarball,    // {base}/files/{o}/{r}/{run}/{attempt}/{job}/report.tar.gz
};

// The store a repository of the simulated allowlist uploads to.
SimStore simStoreOf(std::string_view repo);

inline constexpr std::string_view kSimBucket = "ascend-pytorch-ci";
// The host HTTPS-file artifact_urls carry in a dataset that no server has
// answered from yet; SimServer::start() replaces it with its own base URL.
inline constexpr std::string_view kSimUnboundBaseUrl = "http://relayhud-sim.invalid";

// One pytest JUnit XML report, with the totals its <testsuite> declares.
struct SimReport {
    std::string name; // file name inside the artifact: "default.xml", "default-2.xml"
    std::string xml;
    std::int64_t tests = 0;
    std::int64_t failures = 0; // <failure>: assertion, backend error, strict XPASS
    std::int64_t errors = 0;   // <error>: failed in setup
    std::int64_t skipped = 0;  // pytest.skip and pytest.xfail
};

class SimArtifacts {
public:
    // Keeps a reference: the dataset must outlive this object. Thread-safe.
    explicit SimArtifacts(const SimDataset& dataset);
    ~SimArtifacts();
    SimArtifacts(const SimArtifacts&) = delete;
    SimArtifacts& operator=(const SimArtifacts&) = delete;

    const SimDataset& dataset() const;

    SimStore storeOf(const SimRow& row) const;
    // A GitHub artifact past its retention-days at the dataset's `now`: the
    // GitHub API answers it expired, and no one can read its reports.
    bool artifactExpired(const SimRow& row) const;
    // The JUnit reports of a finished test job that reported counts; none for
    // build jobs, unfinished rows and infrastructure failures. An S3 job's
    // cases are split over several reports. Totals add up to the row's
    // self-reported counts, except on the hidden-failures story's rows.
    std::vector<SimReport> reports(const SimRow& row) const;
    // The raw GitHub Actions log of a finished job ("" while it runs).
    std::string jobLog(const SimRow& row) const;
    // Node ids ("file::Class::name") of the cases that fail in reports(row),
    // failures and errors alike, in report order.
    std::vector<std::string> failingTests(const SimRow& row) const;
    // The artifact's name on its store: the GitHub artifact name (without
    // ".zip"), the S3 prefix ("ci-results/.../"), or the HTTPS file's path.
    std::string artifactName(const SimRow& row) const;
    // Reports for `row` as if it had `total` cases (counts are taken from the
    // test universe, not the row): the generator's speed on big runs.
    std::vector<SimReport> reportsWithTotal(const SimRow& row, std::int64_t total) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::sim
