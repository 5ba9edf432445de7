#include "relayhud/ui/logs/log_window.h"

#include "relayhud/logs/log_file.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QToolButton>

namespace relayhud::ui {

LogWindow::LogWindow(QWidget* parent) : QMainWindow(parent), m_viewer(new LogViewer(this))
{
    setCentralWidget(m_viewer);
    setAcceptDrops(true);
    resize(1200, 760);
    buildMenus();
    connect(m_viewer, &LogViewer::opened, this, &LogWindow::updateTitle);
    connect(m_viewer, &LogViewer::indexingFinished, this, &LogWindow::updateTitle);
    updateTitle();
}

void LogWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Log…"), QKeySequence::Open, this, &LogWindow::chooseFile);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);

    // The view's own keys, listed in the menus: their shortcuts act only while
    // the view has focus, so Ctrl+C in the search field copies its text.
    LogView* view = m_viewer->view();
    const auto viewAction = [view](QMenu* menu, const QString& text, const QKeySequence& keys,
                                   auto slot) {
        QAction* a = menu->addAction(text, view, slot);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetShortcut);
        view->addAction(a);
        return a;
    };
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    viewAction(edit, tr("&Copy"), QKeySequence::Copy, [view] { view->copySelection(); });
    edit->addAction(tr("Copy &Link to Lines"), view,
                    [view] { view->copyLink(LogView::LinkForm::Url); });
    edit->addAction(tr("Copy &Path:Lines"), view,
                    [view] { view->copyLink(LogView::LinkForm::Plain); });
    viewAction(edit, tr("Select &All"), QKeySequence::SelectAll, [view] { view->selectAll(); });

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    viewAction(go, tr("Go to &Line…"), QKeySequence(Qt::CTRL | Qt::Key_G),
               [view] { view->openLineJump(); });
    viewAction(go, tr("&Next Failure"), QKeySequence(Qt::Key_F8),
               [view] { view->stepLandmark(true); });
    viewAction(go, tr("&Previous Failure"), QKeySequence(Qt::SHIFT | Qt::Key_F8),
               [view] { view->stepLandmark(false); });

    QMenu* show = menuBar()->addMenu(tr("&View"));
    for (QToolButton* b :
         {m_viewer->wrapButton(), m_viewer->timestampsButton(), m_viewer->followButton()}) {
        QAction* a = show->addAction(b->text());
        a->setCheckable(true);
        connect(a, &QAction::toggled, b, &QToolButton::setChecked);
        connect(b, &QToolButton::toggled, a, &QAction::setChecked);
    }
    show->addSeparator();
    show->addAction(tr("&Fold All Groups"), view, [view] { view->setAllFolded(true); });
    show->addAction(tr("&Unfold All Groups"), view, [view] { view->setAllFolded(false); });
}

void LogWindow::openFile(const QString& path, const QString& displayName)
{
    m_displayName = displayName;
    m_viewer->openFile(QFileInfo(path).absoluteFilePath());
    updateTitle();
}

void LogWindow::openLink(const LogLink& link)
{
    const QString path = QFileInfo(link.path).absoluteFilePath();
    if (m_viewer->filePath() != path)
        openFile(path);
    m_viewer->showLines(link.firstLine, link.lastLine);
}

void LogWindow::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Log"), {},
                                                      tr("Logs (*.log *.txt *.gz);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void LogWindow::updateTitle()
{
    const QString path = m_viewer->filePath();
    if (path.isEmpty()) {
        setWindowTitle(tr("Log — RelayHUD"));
        return;
    }
    const auto& file = m_viewer->document()->file();
    const QString size = file ? QLocale().formattedDataSize(static_cast<qint64>(file->sizeBytes()),
                                                            1, QLocale::DataSizeSIFormat)
                              : QString();
    const QString name = m_displayName.isEmpty() ? QFileInfo(path).fileName() : m_displayName;
    setWindowTitle(size.isEmpty() ? tr("%1 — RelayHUD").arg(name)
                                  : tr("%1 (%2) — RelayHUD").arg(name, size));
    setWindowFilePath(path);
}

QString LogWindow::droppedFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).isFile())
            return url.toLocalFile();
    return {};
}

void LogWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void LogWindow::dropEvent(QDropEvent* event)
{
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openFile(path);
}

} // namespace relayhud::ui
