#pragma once
// The Markdown report's merge-gating section (verdict/merge_gating.h): what
// the merge bot would decide and what Dr. CI would list for the report's PR,
// with the rule cited.
#include "report_layout.h"

#include "relayhud/verdict/merge_gating.h"

namespace relayhud::verdict {

// `sha` is the report's SHA: when it is not the PR's head, the section says so.
void writeGatingSection(layout::Document& doc, const MergeGating& gating, const Sha& sha);

} // namespace relayhud::verdict
