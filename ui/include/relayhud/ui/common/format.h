#pragma once
// Small text helpers shared by the views: core strings to QString, times,
// durations, and tooltips that never interpret CI text as markup.
#include "relayhud/model/types.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relayhud::ui {

QString toQString(std::string_view text);
QString toQString(const std::string& text);

// "4m 05s", "1h 02m", "12s"; "—" for nothing.
QString formatDuration(std::optional<double> seconds);
// Local time "May 4 20:48"; "—" for 0/nullopt.
QString formatShortTime(EpochSeconds t);
// Local time with date and seconds and the UTC form for tooltips.
QString formatLongTime(std::optional<EpochSeconds> t);

// "1.5 MB", "12 kB": SI units, one decimal, in the user's locale.
QString formatDataSize(std::uint64_t bytes);

// A tooltip whose text is shown verbatim: CI text is HTML-escaped and the
// result wrapped so that Qt never guesses it is rich text.
QString plainToolTip(const QString& text);

QString eventTypeLabel(EventType type); // "PR", "push", "nightly", "periodic"
QString levelLabel(Level level);        // "L2" ... ; "" for Unknown
// What a backend's self-reported counts count, for labels (model/count_kind.h):
// "health checks, not tests"; "" when not known.
QString countKindNote(const std::string& repo);

} // namespace relayhud::ui
