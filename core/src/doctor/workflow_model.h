#pragma once
// A GitHub Actions workflow as the doctor reads it: only what its checks ask
// about, each with its 1-based line. Expressions (`${{ ... }}`) stay text.
#include "relayhud/util/result.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::doctor {

// The callback action every backend uses, before its `@REF`.
inline constexpr std::string_view kCallbackAction =
    "pytorch/test-infra/.github/actions/cross-repo-ci-relay-callback";

struct Text {
    std::string value;
    std::size_t line = 0; // 0: absent
    bool present() const { return line != 0; }
};

struct Step {
    std::size_t line = 0;
    std::string id;
    std::string name;
    Text uses;
    Text run;
    Text condition; // `if:`
    bool continueOnError = false;
    std::map<std::string, Text, std::less<>> with;

    bool isCallback() const;
    std::string callbackRef() const; // after '@'
    const Text* input(std::string_view key) const;
    // "in_progress", "completed", or the expression/text given ("" when absent).
    std::string status() const;
    // A self-report (nightly, periodic): event-type is given.
    bool selfReport() const;
    std::string label() const; // the step's name, id or line, for messages
};

struct Permissions {
    bool present = false;
    std::size_t line = 0;
    bool idTokenWrite = false; // id-token: write, or write-all
};

struct Job {
    std::string key;
    std::size_t line = 0;
    Permissions permissions;
    Text timeoutMinutes;
    Text concurrency; // the group (or the whole scalar)
    bool matrix = false;
    std::size_t matrixLine = 0;
    std::size_t matrixLegs = 1; // the product of the literal lists' lengths; 1 when unknown
    Text usesWorkflow;          // a job that calls a reusable workflow
    std::vector<Step> steps;
};

struct Workflow {
    std::string name;
    std::size_t onLine = 0;
    bool repositoryDispatch = false;
    std::size_t dispatchLine = 0;
    bool dispatchTypesGiven = false;
    std::vector<Text> dispatchTypes;
    bool schedule = false;
    bool workflowCall = false;
    Permissions permissions;
    Text concurrency;
    std::vector<Job> jobs;
};

// An Error when the text is not one YAML document with `on` and `jobs`.
Result<Workflow> readWorkflow(std::string_view text);

} // namespace relayhud::doctor
