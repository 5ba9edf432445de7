#pragma once
// The integration doctor's workflow lint (issue 20): reads a downstream
// backend's GitHub Actions workflow and says where its use of the relay
// would make results lost, refused, misattributed or unverifiable. Every
// check rests on a fact of the relay's callback action or handler, cited in
// docs/crcr-integration-facts.md (pytorch/test-infra @61a7757:
// .github/actions/cross-repo-ci-relay-callback/, aws/lambda/cross_repo_ci_relay/).
//
// What it reads: the triggers, permissions, concurrency and jobs, and in each
// job the steps that use the callback action
// (`pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback@REF`) and
// the steps that check out pytorch/pytorch. Callbacks hidden in a local
// composite action or a called workflow are not seen; the report says so
// rather than guess.
#include "relayhud/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::doctor {

enum class Severity : unsigned char { Error, Warning, Info };
// "error", "warning", "info"
std::string_view severityName(Severity severity);

struct Finding {
    Severity severity = Severity::Warning;
    std::string check;    // "callback-pair", ... (kWorkflowChecks)
    std::size_t line = 0; // 1-based line in the workflow; 0: the file as a whole
    std::string job;      // the job's key, "" for a workflow-level finding
    std::string message;  // what is wrong and what follows from it, one line
    std::string fix;      // one line a maintainer can act on
};

struct CheckInfo {
    std::string_view name;
    std::string_view summary; // what it checks, one line
    std::string_view fact;    // the relay's fact behind it, with its citation
};
// Every check, in report order.
const std::vector<CheckInfo>& workflowChecks();

struct WorkflowLint {
    std::vector<Finding> findings; // by line, then check
    std::size_t callbackSteps = 0; // steps that use the callback action
    std::size_t jobs = 0;
    bool hasError() const;
};

// An Error only when the text is not one YAML document holding a workflow
// (a map with `on` and `jobs`); everything else is a finding.
Result<WorkflowLint> lintWorkflow(std::string_view text);

} // namespace relayhud::doctor
