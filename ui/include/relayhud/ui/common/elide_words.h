#pragma once
// Text cut to a width at a word boundary, so that a name or a reason is never
// cut mid-word ("Regression in test_add…", not "Regression in te…").
#include <QString>

class QFontMetrics;

namespace relayhud::ui {

// `text` whole when it fits `width`; else its longest run of whole words that
// fits with "…" after it; a first word wider than `width` alone is cut with
// "…" (nothing shorter says more).
QString elideAtWord(const QString& text, const QFontMetrics& metrics, int width);

} // namespace relayhud::ui
