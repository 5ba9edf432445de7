#include "relayhud/ui/matrix/cell_state.h"

namespace relayhud::ui {

namespace {

CellState fromConclusion(Conclusion conclusion)
{
    switch (conclusion) {
    case Conclusion::Success: return CellState::Success;
    case Conclusion::Failure: return CellState::Failure;
    case Conclusion::Cancelled: return CellState::Cancelled;
    case Conclusion::TimedOut: return CellState::TimedOut;
    case Conclusion::Skipped: return CellState::Skipped;
    case Conclusion::Neutral:
    case Conclusion::None: break;
    }
    return CellState::Neutral;
}

} // namespace

CellState cellStateOf(RunStatus status, Conclusion conclusion, bool stale)
{
    if (stale)
        return CellState::Stale;
    switch (status) {
    case RunStatus::InProgress: return CellState::InProgress;
    case RunStatus::Queued: return CellState::Queued;
    case RunStatus::Completed:
    case RunStatus::Unknown: break;
    }
    return fromConclusion(conclusion);
}

CellState cellStateOf(const MatrixCell& cell)
{
    if (cell.empty())
        return CellState::Empty;
    if (cell.has(MatrixCell::ReportedGreenTestsFailed) && cell.status == RunStatus::Completed
        && cell.conclusion == Conclusion::Success)
        return CellState::SuccessTestsFailed;
    return cellStateOf(cell.status, cell.conclusion, cell.has(MatrixCell::Stale));
}

QString cellStateText(CellState state)
{
    switch (state) {
    case CellState::Empty: return QStringLiteral("no run");
    case CellState::Success: return QStringLiteral("success");
    case CellState::Failure: return QStringLiteral("failure");
    case CellState::Cancelled: return QStringLiteral("cancelled");
    case CellState::TimedOut: return QStringLiteral("timed out");
    case CellState::InProgress: return QStringLiteral("in progress");
    case CellState::Queued: return QStringLiteral("queued");
    case CellState::Stale: return QStringLiteral("stale (in progress > 6 h)");
    case CellState::Skipped: return QStringLiteral("skipped");
    case CellState::Neutral: return QStringLiteral("neutral");
    case CellState::SuccessTestsFailed: return QStringLiteral("reported success, tests failed");
    }
    return {};
}

QString cellStateShortText(CellState state)
{
    return state == CellState::Stale ? QStringLiteral("stale > 6 h") : cellStateText(state);
}

QString cellStateGlyph(CellState state)
{
    switch (state) {
    case CellState::Empty: return {};
    case CellState::Success: return QStringLiteral("✓");
    case CellState::Failure: return QStringLiteral("✗");
    case CellState::Cancelled: return QStringLiteral("⊘");
    case CellState::TimedOut: return QStringLiteral("⏱");
    case CellState::InProgress: return QStringLiteral("◐");
    case CellState::Queued: return QStringLiteral("○");
    case CellState::Stale: return QStringLiteral("⌛");
    case CellState::Skipped: return QStringLiteral("–");
    case CellState::Neutral: return QStringLiteral("•");
    case CellState::SuccessTestsFailed: return QStringLiteral("✓✗");
    }
    return {};
}

bool isGreenish(CellState state)
{
    return state == CellState::Success || state == CellState::Skipped || state == CellState::Neutral
           || state == CellState::Empty;
}

} // namespace relayhud::ui
