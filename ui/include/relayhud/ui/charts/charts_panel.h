#pragma once
// The trend charts (issue 7, "Charts"): pass rate, failures by class per
// day, queue and execution time, tests executed per run, duration per job.
// A picker chooses the chart, selectors the backend, job and days; points
// tell their values on hover, and a click on a point that stands for a
// commit emits commitActivated(sha). The cache is read on a pool thread
// (TrendsLoader); the GUI thread only builds series (ChartBuilder).
#include "relayhud/ui/charts/chart_builder.h"
#include "relayhud/ui/charts/trends_loader.h"

#include <QPoint>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QXYSeries;
QT_END_NAMESPACE

namespace relayhud::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDefaultDays = 14;

    explicit ChartsPanel(const QString& cachePath, QWidget* parent = nullptr);
    ~ChartsPanel() override;

    // Another cache (Settings moved it); reload() reads it.
    void setCachePath(const QString& cachePath);
    // Each setter reloads, as the matching control does.
    void setChartKind(ChartKind kind);
    ChartKind chartKind() const;
    void setBackend(const QString& repo); // "" for all
    // Needs the job to be in the window (it is listed once a load is done).
    bool setJob(const verdict::JobKey& job);
    void clearJob();
    void setDays(int days);
    void setPassRateOver(PassRateOver over);

    // Writes the chart as shown (or its "no data" message) as a PNG.
    bool exportPng(const QString& path);

    // What is shown, for tests and the window's status line.
    QChart* chart() const { return m_chart; }
    QChartView* chartView() const { return m_view; }
    const ChartMarks& marks() const { return m_marks; }
    const TrendsData* data() const { return m_data.get(); }
    bool showsNoData() const;
    QString noDataText() const;
    QString note() const;
    // The tooltip of the point last hovered ("" after leaving it).
    QString toolTipText() const { return m_toolTip; }
    bool isLoading() const { return m_loader->isLoading(); }

public slots:
    // Re-reads the cache (after a sync) with the current choices; while the
    // panel is hidden (a tab behind another, a window being built), when it
    // is next shown.
    void reload();

signals:
    void commitActivated(const QString& sha);
    // A load was drawn: its chart, or its "no data" message.
    void chartShown();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildControls();
    TrendsRequest currentRequest() const;
    void onLoaded(std::shared_ptr<const TrendsData> loaded);
    void refillSelectors(const TrendsData& loaded);
    void rebuildChart();
    void connectPoints();
    // The point drawn nearest to a viewport position, if within reach: found
    // here rather than by Qt's item hit tests, so a click beside a marker or
    // on a point under another series' line still means that point.
    struct Hit {
        const QXYSeries* series = nullptr;
        int index = 0;
    };
    std::optional<Hit> pointAt(QPoint viewportPos) const;
    void hoverAt(QPoint viewportPos);
    void clickAt(QPoint viewportPos);
    void showTip(const QString& text, std::optional<QPoint> at = std::nullopt);
    void exportWithDialog();

    TrendsLoader* m_loader = nullptr;
    QComboBox* m_kindBox = nullptr;
    QComboBox* m_overBox = nullptr;
    QComboBox* m_backendBox = nullptr;
    QComboBox* m_jobBox = nullptr;
    QSpinBox* m_daysBox = nullptr;
    QPushButton* m_exportButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_empty = nullptr;
    QLabel* m_note = nullptr;
    QChart* m_chart = nullptr; // owned by m_view
    std::shared_ptr<const TrendsData> m_data;
    bool m_readOnShow = true; // a reload waits for the panel to be shown
    ChartMarks m_marks;
    QString m_toolTip;
};

} // namespace relayhud::ui
