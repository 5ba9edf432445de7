#pragma once
// Settings > Coverage: which outcome config each backend's greens are judged
// against, checked as it is chosen (parses? how many entries?), and how far
// the executed test set may shrink before a green counts as incomplete.
#include "relayhud/model/types.h"

#include <QMap>
#include <QString>
#include <QWidget>

#include <vector>

class QSpinBox;
class QTableWidget;

namespace relayhud::ui {

class CoverageSettingsPage : public QWidget {
    Q_OBJECT
public:
    // Rows: the allowlist's backends that report (L2 and above), plus any
    // repo `configs` maps that the allowlist does not hold (yet).
    CoverageSettingsPage(const QMap<QString, QString>& configs, int shrinkPercent,
                         const std::vector<Backend>& allowlist, QWidget* parent = nullptr);

    QMap<QString, QString> outcomeConfigs() const; // rows with a path only
    int shrinkPercent() const;
    QTableWidget* table() const { return m_table; }
    // Sets the row's path (adding the repo when missing) and checks it.
    void setConfig(const QString& repo, const QString& path);

private:
    void addRow(const QString& repo, const QString& path);
    void checkRow(int row);
    void browse();
    void clearSelected();

    QTableWidget* m_table;
    QSpinBox* m_shrink;
};

// "parses: 3 files, 41 entries, 212 names" or the reason it is unusable.
QString describeConfigFile(const QString& path, bool* usable = nullptr);

} // namespace relayhud::ui
