#pragma once
// What one matrix cell shows, reduced to one value the delegate, the legend,
// the filters and the details panel agree on.
#include "relayhud/model/matrix_snapshot.h"

#include <QString>

namespace relayhud::ui {

enum class CellState : int {
    Empty,
    Success,
    Failure,
    Cancelled,
    TimedOut,
    InProgress,
    Queued,
    Stale, // in_progress far past the relay's 6 h sweep: a zombie
    Skipped,
    Neutral,
    // Reported success, but its stored JUnit fails tests (MatrixCell::
    // ReportedGreenTestsFailed): drawn as a failure, with its own glyph.
    SuccessTestsFailed,
};

CellState cellStateOf(RunStatus status, Conclusion conclusion, bool stale);
CellState cellStateOf(const MatrixCell& cell);

// "success", "in progress", "stale (in progress > 6 h)" ...
QString cellStateText(CellState state);
// A legend's word or two: "stale > 6 h" rather than the full sentence.
QString cellStateShortText(CellState state);
// One character for copy/paste and accessibility (the view paints vectors).
QString cellStateGlyph(CellState state);
// Green or nothing to look at: success, skipped, neutral or empty.
bool isGreenish(CellState state);

} // namespace relayhud::ui
