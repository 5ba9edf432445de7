#pragma once
// Edits AppSettings: HUD URL, followed backends (from the cached
// allowlist), cache file, sync interval and days of history.
#include "relayhud/model/types.h"
#include "relayhud/ui/settings/app_settings.h"

#include <QDialog>

#include <vector>

class QLineEdit;
class QListWidget;
class QSpinBox;

namespace relayhud::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const AppSettings& settings, const std::vector<Backend>& allowlist,
                   QWidget* parent = nullptr);

    // The dialog's values merged into the settings it was opened with.
    AppSettings settings() const;

private:
    QWidget* buildBackendList(const std::vector<Backend>& allowlist);
    void browseCache();

    AppSettings m_initial;
    QLineEdit* m_hudUrl;
    QListWidget* m_backends;
    QLineEdit* m_cachePath;
    QSpinBox* m_interval;
    QSpinBox* m_days;
};

} // namespace relayhud::ui
