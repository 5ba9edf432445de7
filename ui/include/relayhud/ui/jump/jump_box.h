#pragma once
// Ctrl+K: a line edit over the top of the window with the entries it matches
// below it. Up/Down (and Page keys) move in the list while typing goes on,
// Enter or a click chooses, Escape or a click elsewhere closes. It owns a
// JumpIndex given to it; it moves no selection itself (chosen() says where).
#include "relayhud/ui/jump/jump_index.h"

#include <QFrame>
#include <QPointer>

class QLabel;
class QLineEdit;
class QListView;

namespace relayhud::ui {

class JumpModel;

class JumpBox : public QFrame {
    Q_OBJECT
public:
    // `window`: the widget it floats over (the main window).
    explicit JumpBox(QWidget* window);

    void setIndex(JumpIndex index);
    // Shows it empty over the top of the window, focused; `around`: the area
    // (in the window's coordinates) to centre on, e.g. the matrix.
    void popup(const QRect& around);
    // Closes it and gives the focus back to where it was.
    void dismiss();

    QLineEdit* edit() const { return m_edit; }
    QListView* list() const { return m_list; }
    JumpModel& model() const { return *m_model; }
    // The note under the line edit: what can be typed, or that nothing matched.
    QString noteText() const;

signals:
    void chosen(const relayhud::ui::JumpEntry& entry);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void refresh();
    void choose(int row);
    void moveCurrent(int delta);
    void fitHeight();

    JumpIndex m_index;
    JumpModel* m_model;
    QLineEdit* m_edit;
    QListView* m_list;
    QLabel* m_note;
    QRect m_around;
    QPointer<QWidget> m_returnFocus;
};

} // namespace relayhud::ui
