// The default rules, embedded at build time from
// resources/triage/default_rules.toml (see core/CMakeLists.txt).
#include "relayhud/triage/rule_set.h"
#include "triage/default_rules_text.h"

namespace relayhud::triage {

std::string_view defaultRulesText() { return kDefaultRulesText; }

} // namespace relayhud::triage
