#pragma once
class QApplication;

namespace relayhud::ui {

// Fusion with a dark palette (--dark), for dark desktops and for checking
// that every view derives its colours from the palette.
void applyDarkPalette(QApplication& app);

} // namespace relayhud::ui
