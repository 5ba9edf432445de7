#pragma once
// The outcome-config editor from the main window (issues 36, 38): one editor
// per window, opened on what the user is looking at and never empty while
// the settings name a config for it: the selected cell's backend's config
// with the selected test revealed, or with no cell selected the configs of
// the backends in view (Settings › Coverage maps a backend to its config;
// the demo fills it with the simulator's own configs). "Open in config" from
// the tests and a missing mandatory test from the Coverage tab land on the
// entry that decides the test.
#include <QObject>
#include <QPointer>
#include <QString>

namespace relayhud::ui {

struct AppSettings;
class ConfigEditorWindow;
class DetailsCoordinator;
class MatrixFilterProxy;
class MatrixView;
class SyncStatusWidget;
class TestsCoordinator;

class ConfigCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        const AppSettings* settings = nullptr; // the cache, the backends' configs
        MatrixFilterProxy* proxy = nullptr;    // the backends in view
        MatrixView* view = nullptr;            // the selected cell
        SyncStatusWidget* status = nullptr;
        TestsCoordinator* tests = nullptr;     // the selected test
        DetailsCoordinator* details = nullptr; // the shown run's backend
    };
    explicit ConfigCoordinator(Frame frame, QObject* parent = nullptr);

    // The editor, shown and raised.
    ConfigEditorWindow* openEditor();
    // Tools › Outcome Config Editor: the editor on the selected cell's
    // backend's config with the tests panel's selected test revealed; with
    // no cell selected, on the configs of the backends in view.
    ConfigEditorWindow* openEditorHere();
    // "Open in config": the entry that decides a test; asks for a config
    // file first when none is open. False when no open config has it.
    bool openTest(const QString& identity, const QString& marks);
    // A mandatory test that did not run: its entry in the config editor.
    bool openMissingMandatoryTest(const QString& configPath, const QString& name);
    // The window closes: the editor's pending edits are saved or dropped as
    // the user says; false when the user keeps it open.
    bool closeEditor();

private:
    QString configPathForShownRun() const;
    void openConfigsInView(ConfigEditorWindow& editor);

    Frame m_frame;
    QPointer<ConfigEditorWindow> m_editor;
};

} // namespace relayhud::ui
