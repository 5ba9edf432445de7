#pragma once
// The dock column beside the matrix (issue 38). Its panels scroll inside
// their docks (no panel's content sets the window's minimum size, which
// stays within a 1280x720 screen); it starts compact and opens to a third of
// the window at the first selected cell, unless the user sized it; and View ›
// Side column (F9) hides the whole column so the matrix takes the window's
// width, and brings it back as it was.
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;

namespace relayhud::ui {

class MatrixView;

class SideColumn : public QObject {
    Q_OBJECT
public:
    // `docks`: the run details first, the tests second, then the tabs beside
    // them. All outlive it.
    SideColumn(QMainWindow* window, QList<QDockWidget*> docks, MatrixView* view);

    QAction* action() const { return m_action; }
    bool isShown() const;
    void setShown(bool shown);
    // The window is shown: the column takes its compact width, unless a
    // saved layout was restored (once).
    void windowShown(bool layoutRestored);
    // The first selected cell opens the column, unless it was sized.
    void growForSelection(bool layoutRestored);

private:
    void updateAction();
    void applyDefaultSizes(int width);

    QMainWindow* m_window;
    QList<QDockWidget*> m_docks;
    MatrixView* m_view;
    QAction* m_action;
    bool m_sized = false;
    bool m_grown = false;
    // The docks the toggle hid, and the one in front of each tab group, to
    // bring back as they were.
    QList<QDockWidget*> m_collapsed;
    QList<QDockWidget*> m_collapsedFront;
};

} // namespace relayhud::ui
