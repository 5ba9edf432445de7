#pragma once
// Links and the jump box (issue 38). relayhud://sha|pr|run links from the
// command line or another instance select their place once the matrix has
// loaded, and say what they found; "Copy link" on cells, commit rows and
// tests; Ctrl+K's jump box over the matrix in memory.
#include "relayhud/model/ids.h"
#include "relayhud/model/types.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QAction;
class QMainWindow;
class QPoint;

namespace relayhud::ui {

class CacheReader;
class JumpBox;
struct JumpEntry;
struct AppLink;
class MatrixCoordinator;
class MatrixFilterProxy;
class MatrixModel;
class MatrixView;
class SnapshotLoader;
class SyncStatusWidget;
class TestsCoordinator;

class LinksCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr; // the menus' and the jump box's parent
        CacheReader* reader = nullptr; // a run link's two reads
        MatrixModel* model = nullptr;
        MatrixFilterProxy* proxy = nullptr;
        MatrixView* view = nullptr;
        SyncStatusWidget* status = nullptr;
        SnapshotLoader* loader = nullptr; // a cache that cannot be read fails pending links
        MatrixCoordinator* matrix = nullptr;
        TestsCoordinator* tests = nullptr;
    };
    explicit LinksCoordinator(Frame frame, QObject* parent = nullptr);

    // View › Jump to… (Ctrl+K).
    QAction* jumpAction() const { return m_jumpAction; }
    // relayhud://sha/<sha>, pr/<n> or run/<check_run_id>[?test=<identity>]:
    // selects that place once the first matrix has loaded; linkOpened (and
    // the status bar) says what was found, or why nothing was.
    void openLink(const QString& link);
    // The first matrix has loaded: the links that waited for it are acted on.
    void matrixLoaded();
    // Ctrl+K: the jump box over the matrix in memory, shown and focused.
    JumpBox* showJumpBox();
    // Moves the selection to a jump box entry; false (with a status message)
    // when the matrix or the shown run no longer has it.
    bool jumpTo(const JumpEntry& entry);
    // The relayhud:// link that "Copy link" puts on the clipboard for a
    // commit row or a test of the tests dock's run; empty when there is
    // nothing to link to. A cell's link needs its run's relay id, which
    // "Copy link" reads off the GUI thread (copyCellLink).
    QString commitLink(int proxyRow) const;
    QString testLink(const QString& identity) const;

signals:
    // A relayhud:// link was acted on: `found` false with the reason.
    void linkOpened(const QString& link, bool found, const QString& message);

private:
    void actOnLink(const QString& text);
    void actOnRunLink(const QString& text, const AppLink& link);
    void openRunLink(const QString& text, const AppLink& link, CheckRunRow runRow,
                     const std::optional<CheckRun>& run);
    void selectPendingTest(CheckRunRow run, bool loaded);
    void reportLink(const QString& link, bool found, const QString& message);
    bool jumpToColumn(const JumpEntry& entry);
    void copyCellLink(CheckRunRow run);
    void copy(const QString& link);
    void showCellMenu(const QPoint& pos);
    void showCommitMenu(const QPoint& pos);
    void showTestMenu(const QPoint& pos);

    Frame m_frame;
    QAction* m_jumpAction;
    JumpBox* m_jumpBox = nullptr;
    bool m_matrixLoaded = false;
    QStringList m_pendingLinks; // until the first matrix has loaded
    QString m_pendingTest;      // a run link's ?test=, selected when its run's tests show
    QString m_pendingTestLink;
    CheckRunRow m_pendingTestRun;
};

} // namespace relayhud::ui
