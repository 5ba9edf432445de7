#include "relayhud/ui/triage/key_table.h"

#include "relayhud/ui/triage/triage_style.h"

#include <QCoreApplication>
#include <QStringList>

namespace relayhud::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("KeyTable", text); }

QKeySequence key(QKeyCombination combination) { return QKeySequence(combination); }

KeyEntry standardEntry(QKeySequence::StandardKey which, const char* what)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(which);
    KeyEntry entry{keys.mid(0, 1), KeyPlace::Window, tr(what), keys.mid(1)};
    return entry;
}

void addMatrixKeys(std::vector<KeyEntry>& table)
{
    const auto add = [&](QList<QKeySequence> keys, const char* what) {
        table.push_back({std::move(keys), KeyPlace::Matrix, tr(what), {}});
    };
    add({key(Qt::Key_J), key(Qt::Key_K)},
        QT_TRANSLATE_NOOP("KeyTable",
                          "Next / previous untriaged failure: the run's failing tests, then the "
                          "next failed cell (newest commit first, worst first)"));
    add({key(Qt::Key_N), key(Qt::Key_P)},
        QT_TRANSLATE_NOOP("KeyTable", "Next / previous failed cell with untriaged failures"));
    add({key(Qt::Key_Return), key(Qt::Key_Enter)},
        QT_TRANSLATE_NOOP("KeyTable", "Show the cell's run details"));
    add({key(Qt::Key_H)}, QT_TRANSLATE_NOOP("KeyTable", "Show or hide the PR's earlier heads"));
    add({key(Qt::Key_G)}, QT_TRANSLATE_NOOP("KeyTable", "Open or fold the shard group"));
    add({key(Qt::SHIFT | Qt::Key_N)},
        QT_TRANSLATE_NOOP("KeyTable", "Next change on a followed item not yet seen"));
    add({key(Qt::CTRL | Qt::Key_D)}, QT_TRANSLATE_NOOP("KeyTable", "Follow the cell's job"));
}

void addTestsKeys(std::vector<KeyEntry>& table)
{
    const auto add = [&](QList<QKeySequence> keys, const QString& what) {
        table.push_back({std::move(keys), KeyPlace::Tests, what, {}});
    };
    add({key(Qt::Key_J), key(Qt::Key_K)},
        tr("Next / previous untriaged failing test; past the run's last, the next failed cell's "
           "first"));
    for (triage::FailureClass cls : triageClasses())
        if (const auto classKeyOf = classKey(cls))
            add({QKeySequence(QString(*classKeyOf))},
                tr("%1: %2").arg(classLabel(cls), classDescription(cls)));
    add({QKeySequence(QString(kClearTriageKey))}, tr("Clear the tag (back to the suggestion)"));
    add({key(Qt::SHIFT | Qt::Key_T)}, tr("Tag with a note and a bug link…"));
    add({key(Qt::Key_Return), key(Qt::Key_Enter)}, tr("Open the job's log at the failure line"));
    add({key(Qt::Key_L)}, tr("Show the selected test in the job's log"));
}

void addWindowKeys(std::vector<KeyEntry>& table)
{
    const auto add = [&](QList<QKeySequence> keys, const char* what) {
        table.push_back({std::move(keys), KeyPlace::Window, tr(what), {}});
    };
    add({key(Qt::Key_Question)}, QT_TRANSLATE_NOOP("KeyTable", "This sheet of keys"));
    add({key(Qt::CTRL | Qt::Key_K)},
        QT_TRANSLATE_NOOP("KeyTable", "Jump to a commit, PR, backend, job or test"));
    table.push_back(standardEntry(
        QKeySequence::Find,
        QT_TRANSLATE_NOOP("KeyTable", "Filter the matrix (in the tests table: its tests)")));
    add({key(Qt::CTRL | Qt::SHIFT | Qt::Key_R)}, QT_TRANSLATE_NOOP("KeyTable", "Reset filters"));
    table.push_back(standardEntry(QKeySequence::Undo, QT_TRANSLATE_NOOP("KeyTable", "Undo a tag")));
    table.push_back(standardEntry(QKeySequence::Redo, QT_TRANSLATE_NOOP("KeyTable", "Redo a tag")));
    add({key(Qt::CTRL | Qt::Key_R), key(Qt::Key_F5)}, QT_TRANSLATE_NOOP("KeyTable", "Sync now"));
    add({key(Qt::CTRL | Qt::SHIFT | Qt::Key_B)},
        QT_TRANSLATE_NOOP("KeyTable", "Backends overview"));
    add({key(Qt::CTRL | Qt::SHIFT | Qt::Key_H)},
        QT_TRANSLATE_NOOP("KeyTable", "Show or hide the charts"));
    add({key(Qt::Key_F9)},
        QT_TRANSLATE_NOOP("KeyTable", "Show or hide the side column (run details, tests, ...)"));
    add({key(Qt::CTRL | Qt::SHIFT | Qt::Key_E)},
        QT_TRANSLATE_NOOP("KeyTable", "Outcome config editor"));
    table.push_back(
        standardEntry(QKeySequence::Open, QT_TRANSLATE_NOOP("KeyTable", "Open test reports")));
    add({key(Qt::CTRL | Qt::SHIFT | Qt::Key_O)}, QT_TRANSLATE_NOOP("KeyTable", "Open a log"));
    table.push_back(
        standardEntry(QKeySequence::Preferences, QT_TRANSLATE_NOOP("KeyTable", "Settings")));
    table.push_back(standardEntry(QKeySequence::Quit, QT_TRANSLATE_NOOP("KeyTable", "Quit")));
}

QString oneKeyText(const QKeySequence& sequence)
{
    const QKeySequence normal = normalizedKey(sequence);
    if (normal.count() != 1)
        return normal.toString(QKeySequence::PortableText);
    const QKeyCombination combination = normal[0];
    const Qt::Key k = combination.key();
    const Qt::KeyboardModifiers modifiers = combination.keyboardModifiers();
    // Letters read as typed: "j", and "T" for Shift+T.
    if (k >= Qt::Key_A && k <= Qt::Key_Z) {
        const QChar letter(u'a' + (k - Qt::Key_A));
        if (modifiers == Qt::NoModifier)
            return QString(letter);
        if (modifiers == Qt::ShiftModifier)
            return QString(letter.toUpper());
    }
    if (k == Qt::Key_Return && modifiers == Qt::NoModifier)
        return tr("Enter");
    return normal.toString(QKeySequence::PortableText);
}

} // namespace

QKeySequence normalizedKey(const QKeySequence& sequence)
{
    if (sequence.count() != 1)
        return sequence;
    const QKeyCombination combination = sequence[0];
    Qt::Key k = combination.key();
    Qt::KeyboardModifiers modifiers = combination.keyboardModifiers();
    if (k == Qt::Key_Enter)
        k = Qt::Key_Return;
    const bool letter = k >= Qt::Key_A && k <= Qt::Key_Z;
    if (!letter && k < 0x80 && modifiers == Qt::ShiftModifier)
        modifiers = Qt::NoModifier; // `?` is Shift+/ on many layouts
    return QKeySequence(QKeyCombination(modifiers, k));
}

std::vector<KeyEntry> keyTable()
{
    std::vector<KeyEntry> table;
    addMatrixKeys(table);
    addTestsKeys(table);
    addWindowKeys(table);
    // A standard key this platform binds to nothing (Preferences on most
    // Linux desktops) has no row.
    std::erase_if(table, [](const KeyEntry& entry) { return entry.keys.isEmpty(); });
    return table;
}

QString keysText(const QList<QKeySequence>& keys)
{
    QStringList texts;
    for (const QKeySequence& sequence : keys)
        if (const QString text = oneKeyText(sequence); !texts.contains(text))
            texts << text;
    return texts.join(QStringLiteral(" / "));
}

QString placeText(KeyPlace place)
{
    switch (place) {
    case KeyPlace::Matrix: return tr("Matrix");
    case KeyPlace::Tests: return tr("Tests table");
    case KeyPlace::Window: return tr("Anywhere");
    }
    return {};
}

QString keyTableMarkdown()
{
    QString text = QStringLiteral("| Key | Where | What it does |\n|---|---|---|\n");
    for (const KeyEntry& entry : keyTable()) {
        QString keys = keysText(entry.keys);
        keys.replace(QStringLiteral(" / "), QStringLiteral("` / `"));
        text += u"| `" % keys % u"` | " % placeText(entry.place) % u" | " % entry.what % u" |\n";
    }
    return text;
}

} // namespace relayhud::ui
