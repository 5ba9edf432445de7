#pragma once
// The upgrade review (issue 39): what moving a PyTorch checkout from one
// revision to another changes in the upstream test files a backend's outcome
// configs name, read through git/ and compared by upgrade/method_delta.h,
// and which config entries name nothing at the new revision.
//  - The files: every section whose path is under ${TORCH_ROOT}/ (the
//    framework's upstream root; ${TORCH_DEVICE_ROOT}/ is the backend's own
//    tree, not PyTorch's), as a path from the PyTorch root.
//  - A stale entry: a `names` item whose method part names no function of
//    its file at the new revision. The framework keys an item by its method
//    part alone, in any class (spyre_names.h), and fullmatches a regex one;
//    a regex RE2 cannot run is "cannot judge" and never listed as stale.
//    When the delta renamed, moved or removed that method, the entry says so.
//  - Each changed method's outcome in each config that has a section for
//    its file, at both revisions (by its old name and file, then its new
//    ones): the mode of the listing the framework would try first
//    (config::Resolver::candidatesFor: exact listings in YAML order, then
//    regexes), "by dtype" when its listings give different modes (the
//    framework then picks by the variant's dtype), the file's
//    unlisted_test_mode when none lists it, "cannot judge" when a regex RE2
//    cannot run might. One listed before and unlisted now "falls to the
//    default".
//  - The OpInfo database: common_methods_invocations.py and every file of
//    opinfo/definitions/ at either revision (pysource/opinfo_scan.h), its
//    entries compared by op and variant wherever they live: added, removed,
//    or changed with the families of the fields that changed. An op in a
//    config's supported_ops is marked: its generated variants change with it.
#include "relayhud/config/outcome_config.h"
#include "relayhud/git/git_repository.h"
#include "relayhud/upgrade/method_delta.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::upgrade {

struct ReviewConfig {
    std::string path; // as the user named it
    config::OutcomeConfig config;
};

struct StaleEntry {
    std::string configPath;
    int line = 0; // 1-based, of the names item
    std::string file;
    std::string className;   // the item's class part, as written ("" when none)
    std::string method;      // its method part
    std::string written;     // the item as written: "TestFoo::test_bar"
    std::string explanation; // "renamed to test_baz", "moved to FILE::CLASS", "removed", ""
};

// One config's outcome for a method at one revision.
struct MethodOutcome {
    std::string config;
    std::string text;    // "xfail_strict (line 7)", "xfail (the file's default)", "—"
    bool listed = false; // a listing decides (or might, by dtype)
    bool judged = true;
};

// The outcomes of one change (parallel to UpgradeReview::changes).
struct ChangeOutcomes {
    std::vector<MethodOutcome> before; // empty for an added method
    std::vector<MethodOutcome> after;  // empty for a removed one
    bool fallsToDefault = false;       // listed before, unlisted now, in some config
};

struct OpInfoChange {
    std::string file; // where the entry is at the new revision (the old, when removed)
    std::string op;   // "add", "nn.functional.relu.default_variant" (name.variant)
    std::string what; // "added", "removed", "changed"
    std::vector<std::string> families; // changed: "dtypes", "skips", "decorators", ...
    bool supported = false;            // a supported op of a config
};

struct UpgradeReview {
    std::string from; // the revisions as asked: "v2.13.0"
    std::string to;
    std::string fromSha;
    std::string toSha;
    std::vector<std::string> files;  // reviewed, sorted
    std::vector<std::string> absent; // named by a config, at neither revision
    std::vector<MethodChange> changes;
    std::vector<ChangeOutcomes> outcomes; // parallel to changes
    std::size_t fallToDefault = 0;        // changes whose method now falls to the default
    std::vector<StaleEntry> stale;
    std::vector<OpInfoChange> opInfos; // by op
    std::vector<std::string> problems; // a file the scanner could not read whole
};

// An Error when a revision is not in the checkout or git cannot read it.
Result<UpgradeReview> reviewUpgrade(const git::GitRepository& repo, const std::string& from,
                                    const std::string& to,
                                    const std::vector<ReviewConfig>& configs);

// One line per change and per stale entry:
// KIND<TAB>FILE<TAB>CLASS<TAB>METHOD<TAB>DETAIL (tabs and newlines in a field
// become spaces), the changes first in compareMethods' order, then the stale
// entries by file and line, then the OpInfo entries by op
// (`opinfo<TAB>FILE<TAB><TAB>OP<TAB>changed: dtypes, skips`; a supported op's
// DETAIL ends "; supported op: its variants *_<op>_spyre_* change").
std::string reviewTsv(const UpgradeReview& review);
// The same for people: the counts first, then each file's changes.
std::string reviewText(const UpgradeReview& review);

} // namespace relayhud::upgrade
