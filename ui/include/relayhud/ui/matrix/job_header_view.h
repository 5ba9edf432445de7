#pragma once
// The matrix's two-tier column header: a band per backend (name and level
// badge, coloured per backend) over short job labels drawn rotated
// ("test (default, 1, 3, linux.spyre.1)" reads "default 1/3"; job_label.h),
// the full name, runner and shard in the tooltip. A shard group's column
// reads "default ×4" in the link colour; a click on its label shows the
// shards one by one, a click on one of them (marked by a line over the
// group) folds them again.
#include <QHeaderView>

namespace relayhud::ui {

class JobHeaderView : public QHeaderView {
    Q_OBJECT
public:
    explicit JobHeaderView(QWidget* parent = nullptr);

    static constexpr int kBandHeight = 22;
    QSize sizeHint() const override;
    // A backend's name that tells it from the others when "org/repo" does
    // not fit: the repo less the "torch-"/"pytorch-" most share, or the org
    // for a repo named "pytorch" ("Ascend"). The tooltip has the full name.
    static QString distinguishingName(const QString& backend);
    // The band's name as painted in `width` (the full name when it fits).
    static QString bandName(const QFontMetrics& metrics, const QString& backend, int width);
    // The width a backend's band needs for its level badge and its
    // distinguishing name (the view widens narrower bands' columns to it).
    int bandMinimumWidth(const QString& backend, int level) const;
    // The name the band over `logicalIndex` shows when wholly in view.
    QString shownBandName(int logicalIndex) const;

signals:
    // The label of a shard group's column, or of one of its shown shards.
    void shardGroupToggled(int logicalIndex);

protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override;
    void paintEvent(QPaintEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QFont labelFont() const;
    int labelHeight() const;
    void paintBands(QPainter& painter) const;
    void paintBand(QPainter& painter, const QRect& band, const QString& backend, int level) const;
    QString bandToolTip(int logicalIndex) const;
    // The short label ("default 1/4") and the full name, runner and shard.
    QString labelText(int logicalIndex) const;
    bool followedBackend(const QRect& band) const;
    QString labelToolTip(int logicalIndex) const;
    bool isCurrentColumn(int logicalIndex) const;
    bool inShardGroup(int logicalIndex) const;
};

} // namespace relayhud::ui
