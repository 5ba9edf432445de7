#pragma once
// What every relayhud-cli subcommand needs: flag parsing, the cache, and the
// one-line failure.
#include "cli_commands.h"
#include "relayhud/config/pytest_selection.h"
#include "relayhud/util/result.h"

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::cli {

// Flags of one subcommand: "--name value" pairs; repeated names accumulate.
struct Flags {
    std::multimap<std::string, std::string> values;
    std::string error;

    std::string get(const std::string& name, std::string fallback = {}) const;
    std::vector<std::string> all(const std::string& name) const;
    bool has(const std::string& name) const { return values.count(name) > 0; }
};

Flags parseFlags(const std::vector<std::string>& args, const std::vector<std::string>& known);
bool parseInt(const std::string& text, int& out);
bool parseInt64(const std::string& text, std::int64_t& out);
Result<std::unique_ptr<Database>> openCache(const GlobalOptions& global);
// The exit statuses of the commands that answer a question, as grep's: 0 found,
// 1 not found, 2 trouble (bad arguments, unreadable input).
inline constexpr int kMatched = 0;
inline constexpr int kNoMatch = 1;
inline constexpr int kTrouble = 2;

// --selection REPO=FILE: a job log or workflow file read for the job's own
// pytest selection (config/pytest_selection.h).
struct RepoSelection {
    std::string repo;
    config::PytestSelection selection;
};
Result<RepoSelection> readSelectionFlag(const std::string& item);

// "relayhud-cli: <message>" on `err`; returns `code`.
int fail(std::ostream& err, const std::string& message, int code = 1);

} // namespace relayhud::cli
