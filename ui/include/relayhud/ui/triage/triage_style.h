#pragma once
// How failure classes look and are typed: a label, a colour per palette (a
// chip beside the outcome; the label always goes with it, so the meaning never
// rests on colour alone), and the one key that sets each class in keyboard
// triage (Treeherder's habit: one keystroke per verdict).
#include "relayhud/model/failure_class.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

class QPainter;
class QPalette;
class QRect;

namespace relayhud::ui {

// The classes a human can set, in menu order (triage::taggableClasses()).
const std::vector<triage::FailureClass>& triageClasses();

// "Regression", "Pre-existing", "Backend bug", ...; "Untriaged" for Unset too.
// A class without a row in the look table (triage_style.cpp) shows its
// model name in a neutral grey with no key.
QString classLabel(triage::FailureClass cls);
// One line on what the class means, for tooltips and the shortcut sheet.
QString classDescription(triage::FailureClass cls);
// The key that sets the class: r p f i b t e u; none for Untriaged.
std::optional<QChar> classKey(triage::FailureClass cls);
// The class a key sets (case-insensitive); `x` clears (Untriaged).
std::optional<triage::FailureClass> classForKey(QChar key);
inline constexpr QChar kClearTriageKey = u'x';

// When a tag was set: "2026-12-03 10:12 UTC".
QString tagTimeText(std::int64_t timeMs);

// The chip colour of a class, readable with the palette's text over it.
QColor classColor(triage::FailureClass cls, const QPalette& palette);
// A rounded chip with the label; a suggestion (not a human's tag) is drawn
// hollow with an italic label, so "what the tool thinks" and "what a person
// said" differ at a glance. A provisional suggestion (its evidence still
// being fetched) reads "Regression?". Returns the width used.
int paintClassChip(QPainter& painter, const QRect& box, triage::FailureClass cls, bool human,
                   const QPalette& palette, bool provisional = false);

} // namespace relayhud::ui
