#pragma once
// What a backend's self-reported counts (the HUD row's test_results) really
// count, where that is known (issue 34, part 6). One table, keyed by the
// downstream repository, each entry with its source
// (../shared/specs/real-backends.md sections 1.3-1.5, 3.2):
//  - torch-spyre/torch-spyre: JUnit test cases, counted from the run's JUnit
//    XML (build_test_pytorch_source.yaml's `report` job runs
//    parse_junit_xml_counts.py; torch-spyre @01f88357 and @5a14b852).
//  - TorchedHat/pytorch-redhat-ci: test commands (one per test command, in
//    step summaries and logs); it sends none to the HUD
//    (.github/workflows/crcr-nightly.yml @a559b04, L143-152, L704-725).
//  - pytorch/crcr-test: health-check outcomes, not tests
//    (crcr-dispatch-receiver.yml @03d231d3; tests/write_health_report.py
//    @5b735a0b, checks_to_test_results).
// Any other repository: unknown ("test counts", unlabelled).
#include <string_view>

namespace relayhud {

enum class CountKind : unsigned char { Unknown, TestCases, TestCommands, HealthChecks };

struct CountKindEntry {
    std::string_view repo; // "org/repo", matched without regard to case
    CountKind kind = CountKind::Unknown;
    std::string_view source; // where the fact comes from
};

// The entry for `repo`; Unknown (with an empty source) when the table has none.
CountKindEntry countKindOf(std::string_view repo);
// "test cases", "test commands", "health checks", "test counts".
std::string_view countKindName(CountKind kind);
// Whether the counts may be compared with JUnit cases: test cases, and
// counts of an unknown kind (compared as before, labelled as unknown);
// never commands or health checks.
bool comparableWithJUnit(CountKind kind);

} // namespace relayhud
