#pragma once
// A top-level window for one log: a LogViewer with File > Open, a View menu,
// drag and drop of files, and the file's name and size in the title. It
// stores nothing in QSettings.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/ui/logs/log_link.h"
#endif

#include <QMainWindow>

class QMimeData;

namespace relayhud::ui {

class LogViewer;

class LogWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit LogWindow(QWidget* parent = nullptr);

    // `displayName`: what the title calls the log ("torch-spyre/torch-spyre ·
    // test (default, 1, 3)" for a downloaded job log); empty: the file's name.
    void openFile(const QString& path, const QString& displayName = {});
    // Opens the link's file (unless it is open) and selects its lines.
    void openLink(const LogLink& link);
    LogViewer* viewer() const { return m_viewer; }

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void chooseFile();
    void updateTitle();
    static QString droppedFile(const QMimeData* mime);

    LogViewer* m_viewer;
    QString m_displayName;
};

} // namespace relayhud::ui
