#pragma once
// A log with everything around it: the view, the search row, the list of
// failure landmarks, indexing progress, tail mode and a status line. Opening
// is asynchronous; the first screen shows as soon as the first lines are
// indexed. Requests that arrive before the log is ready (a line from a link,
// a test's failure) are kept and carried out when they can be.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/line_number.h"
#endif

#include <QString>
#include <QTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QTreeView;
class QSplitter;
class QToolButton;

namespace relayhud::ui {

class LandmarksModel;
class LogDocument;
class LogSearchBar;
class LogSearchController;
class LogStructureWatcher;
class LogView;

class LogViewer : public QWidget {
    Q_OBJECT
public:
    explicit LogViewer(QWidget* parent = nullptr);
    ~LogViewer() override;

    void openFile(const QString& path);
    QString filePath() const;
    void goToLine(LineNumber line, bool select);
    // Selects lines first..last (a link's range) once they are indexed.
    void showLines(LineNumber first, LineNumber last);
    // Shows where pytest tells `testIdentity`'s failure ("test/test_x.py::
    // TestX::test_y"): its "____ TestX.test_y ____" section, else its FAILED
    // line. True when it is on screen now; else the request waits for the
    // scan and testFailureResolved() says how it ended.
    bool goToTestFailure(const QString& testIdentity);
    void setFollowing(bool on);
    bool isFollowing() const;

    LogView* view() const { return m_view; }
    LogSearchBar* searchBar() const { return m_searchBar; }
    QTreeView* landmarksView() const { return m_landmarksView; }
    LandmarksModel* landmarksModel() const { return m_landmarks; }
    LogDocument* document() const { return m_document; }
    LogSearchController* searchController() const { return m_search; }
    LogStructureWatcher* structureWatcher() const { return m_structure; }
    QString progressText() const;
    QString statusText() const;
    QString noticeText() const;
    QToolButton* followButton() const { return m_follow; }
    QToolButton* wrapButton() const { return m_wrap; }
    QToolButton* timestampsButton() const { return m_timestamps; }

Q_SIGNALS:
    void opened(bool ok, const QString& error);
    void indexingFinished();
    void landmarksChanged(int count);
    void searchFinished(qint64 count);
    void testFailureResolved(const QString& testIdentity, bool found);

private:
    void buildLayout();
    void connectParts();
    QWidget* buildLandmarksPanel();
    QWidget* buildStatusRow();
    void onOpened(bool ok, const QString& error);
    void onIndexProgress();
    void onContentReset();
    void onLandmarksAdded(std::size_t first, std::size_t count);
    void startSearch();
    void stepMatch(bool forward);
    void jumpToFirstMatch(bool searchDone);
    void applyPendingLines();
    bool resolvePendingTest();
    void showNotice(const QString& text);
    void updateLandmarksTitle();

    struct LineRequest {
        LineNumber first;
        LineNumber last;
        bool select = true;
        bool range = false;
    };

    LogDocument* m_document;
    LogStructureWatcher* m_structure;
    LogSearchController* m_search;
    LandmarksModel* m_landmarks;
    LogView* m_view = nullptr;
    LogSearchBar* m_searchBar = nullptr;
    QSplitter* m_splitter = nullptr;
    QTreeView* m_landmarksView = nullptr;
    QLabel* m_landmarksTitle = nullptr;
    QLabel* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_notice = nullptr;
    QToolButton* m_wrap = nullptr;
    QToolButton* m_timestamps = nullptr;
    QToolButton* m_follow = nullptr;
    QTimer m_noticeTimer;
    std::optional<LineRequest> m_pendingLines;
    std::optional<QString> m_pendingTest;
    bool m_jumpToFirstMatch = false;
};

} // namespace relayhud::ui
