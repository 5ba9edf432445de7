#pragma once
// Moving a test between the four modes with a minimal, comment-preserving
// text edit (issue 6). The edit splices lines of the original text; then the
// result is parsed again and must differ from the original by exactly the
// intended fact, or the edit is refused with the reason.
#include "relayhud/config/outcome_config.h"
#include "relayhud/junit/test_identity.h"
#include "relayhud/junit/test_result.h"
#include "relayhud/util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

enum class EditKind : unsigned char {
    Promote, // xfail_strict (or xfail) -> mandatory_success
    Demote,  // mandatory_success -> xfail_strict
    SetMode, // any of the four -> EditRequest::target
};

struct EditRequest {
    std::string test; // as parseTestQuery() reads it; base or instantiated name
    TestMarks marks;
    EditKind kind = EditKind::SetMode;
    Mode target = Mode::MandatorySuccess; // SetMode only
    std::string reason;                   // the user's words, kept as a comment
    std::string evidence;                 // "passed 12/12 runs of spyre/trunk since abc1234"
};

struct ModeEdit {
    std::string text; // the whole new config
    std::string baseName;
    Mode from = Mode::Xfail;
    Mode to = Mode::Xfail;
    std::string summary;               // one line for a log or a commit message
    std::vector<std::string> warnings; // e.g. an explicit entry now overrides a pattern
};

Result<ModeEdit> planModeEdit(std::string_view text, const EditRequest& request,
                              const BaseNameOptions& options = {});

} // namespace relayhud::config
