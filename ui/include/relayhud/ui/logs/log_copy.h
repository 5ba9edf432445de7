#pragma once
// The text of a selection, read from the log on a worker: a selection can
// span a whole file, far more than the lines the view holds.
#include "relayhud/logs/log_file.h"
#include "relayhud/ui/logs/log_selection.h"

#include <QString>

namespace relayhud::ui {

// Bytes of the file the selection covers, from its first line's start to
// its last line's end (two line reads): what copying it would put on the
// clipboard, near enough to refuse a gigabyte before reading it.
Result<std::uint64_t> selectionBytes(const LogFile& log, const LogSelection& selection);

// The decoded text of the selection (no timestamps, markers or escape
// sequences): whole lines end with "\n"; characters are copied as selected.
// Lines are read whole up to `capBytes`; fails past it.
Result<QString> selectionText(const LogFile& log, const LogSelection& selection,
                              std::uint64_t capBytes);

} // namespace relayhud::ui
