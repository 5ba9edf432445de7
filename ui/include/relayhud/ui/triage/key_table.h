#pragma once
// Every key of the main window in one table (issue 36): the `?` sheet and the
// README's key list are both written from it, and a UI test checks that every
// shortcut the window binds is in it, so the three cannot drift apart.
#include <QKeySequence>
#include <QList>
#include <QString>

#include <vector>

namespace relayhud::ui {

// Where a key acts, in the sheet's order.
enum class KeyPlace { Matrix, Tests, Window };

struct KeyEntry {
    QList<QKeySequence> keys; // the bindings shown, as one line ("j / k")
    KeyPlace place = KeyPlace::Window;
    QString what;
    // Bindings that work but are not shown: a standard key's second and
    // later ones on this platform (Undo's Alt+Backspace beside Ctrl+Z).
    QList<QKeySequence> alternatives;
};

// The keys in the sheet's order: the matrix's, the tests table's, then the
// window's menus.
std::vector<KeyEntry> keyTable();

// "j / k", "T" (Shift+T: a capital means Shift), "Enter" (Return and
// Enter), "Ctrl+K".
QString keysText(const QList<QKeySequence>& keys);
// "Matrix", "Tests table", "Anywhere".
QString placeText(KeyPlace place);
// A binding as the table names it: Enter for Return, `?` without the Shift
// that some layouts need for it.
QKeySequence normalizedKey(const QKeySequence& key);

// The README's "Keys" section body: a Markdown table written from keyTable().
QString keyTableMarkdown();

} // namespace relayhud::ui
