#pragma once
// Moving a test between the four modes with a minimal, comment-preserving
// text edit, proved with the framework's own semantics (resolver.h): the
// edit changes the method's outcome for exactly the variants its deciding
// entry governed, changes nothing else, and is refused when no placement of
// the listing achieves that (spec section 9).
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"
#include "relayhud/model/test_result.h"
#include "relayhud/util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

enum class EditKind : unsigned char {
    Promote, // xfail (or xfail_strict) -> mandatory_success
    Demote,  // mandatory_success -> EditRequest::demoteTo (xfail unless asked otherwise)
    SetMode, // any of the four -> EditRequest::target
};

struct EditRequest {
    std::string test; // as parseTestQuery() reads it; base or instantiated name
    TestMarks marks;  // op marks (or the op a user named) and a dtype to pick a variant
    EditKind kind = EditKind::SetMode;
    Mode target = Mode::MandatorySuccess; // SetMode only
    std::string reason;                   // the user's words, kept as a comment
    std::string evidence;                 // "passed 12/12 runs of spyre/trunk since abc1234"
    Mode demoteTo = Mode::Xfail;          // Demote only: xfail or xfail_strict
};

struct ModeEdit {
    std::string text;       // the whole new config
    std::string baseName;   // the method, as the framework keys it
    std::string listedName; // the name the new or changed listing has
    Mode from = Mode::Xfail;
    Mode to = Mode::Xfail;
    std::string summary;               // one line for a log or a commit message
    std::vector<std::string> warnings; // e.g. also changes the method in other classes
};

Result<ModeEdit> planModeEdit(std::string_view text, const EditRequest& request,
                              const ResolveContext& context = {});

} // namespace relayhud::config
