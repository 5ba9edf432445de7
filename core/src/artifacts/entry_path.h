#pragma once
// The one gate every archive entry name passes before it is used as a path.
#include "relayhud/artifacts/archive_reader.h"

#include <string>
#include <vector>

namespace relayhud::artifacts {

// Cleans an entry name into a relative '/'-separated path, or says why it is
// refused: empty, absolute (`/x`, `//host/x`, `C:x`), `..` anywhere, a NUL or
// other control character, a part longer than a file name may be, or over
// the limits' length and depth. Backslashes count as separators (zips made
// on Windows use them), so `..\x` is refused like `../x`. `.` and empty
// parts are dropped; a name that is nothing else (`./`) is refused as empty.
Result<std::string> cleanEntryPath(const std::string& raw, const ArchiveLimits& limits);

// The '/'-separated parts of a cleaned path.
std::vector<std::string> pathParts(const std::string& cleaned);

} // namespace relayhud::artifacts
