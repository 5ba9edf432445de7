#include "relayhud/ui/charts/charts_panel.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/util/time.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineF>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPixmap>
#include <QPushButton>
#include <QShowEvent>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QXYSeries>

namespace relayhud::ui {

namespace {

// How far (in pixels) from a point the pointer may be and still mean it.
constexpr qreal kReachPixels = 14.0;

QStringList jobData(const verdict::JobKey& job)
{
    return {toQString(job.repo), toQString(job.workflow), toQString(job.job)};
}

} // namespace

ChartsPanel::ChartsPanel(const QString& cachePath, QWidget* parent)
    : QWidget(parent), m_loader(new TrendsLoader(this))
{
    m_loader->setCachePath(cachePath.toStdString());
    buildControls();
    connect(m_loader, &TrendsLoader::loaded, this, &ChartsPanel::onLoaded);
    m_overBox->setVisible(chartKind() == ChartKind::PassRate);
}

void ChartsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_readOnShow)
        reload();
}

void ChartsPanel::setCachePath(const QString& cachePath)
{
    m_loader->setCachePath(cachePath.toStdString());
}

ChartsPanel::~ChartsPanel() = default;

void ChartsPanel::buildControls()
{
    m_kindBox = new QComboBox(this);
    m_kindBox->addItem(tr("Pass rate"), static_cast<int>(ChartKind::PassRate));
    m_kindBox->addItem(tr("Failures by class"), static_cast<int>(ChartKind::FailureClasses));
    m_kindBox->addItem(tr("Queue and execution time"), static_cast<int>(ChartKind::QueueTimes));
    m_kindBox->addItem(tr("Tests executed"), static_cast<int>(ChartKind::TestsExecuted));
    m_kindBox->addItem(tr("Duration per job"), static_cast<int>(ChartKind::Durations));
    m_overBox = new QComboBox(this);
    m_overBox->addItem(tr("per commit"), static_cast<int>(PassRateOver::Commits));
    m_overBox->addItem(tr("per day"), static_cast<int>(PassRateOver::Days));
    m_backendBox = new QComboBox(this);
    m_backendBox->addItem(tr("All backends"), QString());
    m_backendBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_backendBox->setMinimumContentsLength(12);
    m_jobBox = new QComboBox(this);
    m_jobBox->addItem(tr("All jobs"));
    m_jobBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_jobBox->setMinimumContentsLength(12);
    m_daysBox = new QSpinBox(this);
    m_daysBox->setRange(1, 365);
    m_daysBox->setValue(kDefaultDays);
    m_daysBox->setPrefix(tr("last "));
    m_daysBox->setSuffix(tr(" days"));
    m_exportButton = new QPushButton(tr("Export PNG…"), this);

    // Two rows: the panel shares the dock column beside the matrix.
    auto* what = new QHBoxLayout;
    what->addWidget(m_kindBox);
    what->addWidget(m_overBox);
    what->addStretch(1);
    what->addWidget(m_exportButton);
    auto* which = new QHBoxLayout;
    which->addWidget(m_backendBox);
    which->addWidget(m_jobBox);
    which->addWidget(m_daysBox);
    which->addStretch(1);
    auto* bar = new QVBoxLayout;
    bar->setSpacing(4);
    bar->addLayout(what);
    bar->addLayout(which);

    m_view = new QChartView(this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 220);
    m_view->viewport()->setMouseTracking(true); // hover tips without a button held
    m_view->viewport()->installEventFilter(this);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setTextFormat(Qt::PlainText);
    m_empty->setAutoFillBackground(true);
    m_empty->setBackgroundRole(QPalette::Base);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);
    m_note = new QLabel(this);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_note);

    const auto changed = [this] { reload(); };
    connect(m_kindBox, &QComboBox::currentIndexChanged, this, changed);
    connect(m_backendBox, &QComboBox::currentIndexChanged, this, [this] {
        m_jobBox->setCurrentIndex(0); // the job list belongs to the old backend
        reload();
    });
    connect(m_jobBox, &QComboBox::currentIndexChanged, this, changed);
    connect(m_daysBox, &QSpinBox::valueChanged, this, changed);
    connect(m_overBox, &QComboBox::currentIndexChanged, this, [this] { rebuildChart(); });
    connect(m_exportButton, &QPushButton::clicked, this, &ChartsPanel::exportWithDialog);
}

void ChartsPanel::setChartKind(ChartKind kind)
{
    m_kindBox->setCurrentIndex(m_kindBox->findData(static_cast<int>(kind)));
}

ChartKind ChartsPanel::chartKind() const
{
    return static_cast<ChartKind>(m_kindBox->currentData().toInt());
}

void ChartsPanel::setBackend(const QString& repo)
{
    int at = m_backendBox->findData(repo);
    if (at < 0) { // not loaded yet: keep it, the next load lists it
        m_backendBox->addItem(repo, repo);
        at = m_backendBox->count() - 1;
    }
    m_backendBox->setCurrentIndex(at);
}

bool ChartsPanel::setJob(const verdict::JobKey& job)
{
    const int at = m_jobBox->findData(jobData(job));
    if (at < 0)
        return false;
    m_jobBox->setCurrentIndex(at);
    return true;
}

void ChartsPanel::clearJob() { m_jobBox->setCurrentIndex(0); }

void ChartsPanel::setDays(int days) { m_daysBox->setValue(days); }

void ChartsPanel::setPassRateOver(PassRateOver over)
{
    m_overBox->setCurrentIndex(m_overBox->findData(static_cast<int>(over)));
}

TrendsRequest ChartsPanel::currentRequest() const
{
    TrendsRequest r;
    r.kind = chartKind();
    r.since =
        nowSeconds() - static_cast<EpochSeconds>(m_daysBox->value()) * verdict::kSecondsPerDay;
    r.backend = m_backendBox->currentData().toString().toStdString();
    const QStringList job = m_jobBox->currentData().toStringList();
    if (job.size() == 3)
        r.job = verdict::JobKey{job[0].toStdString(), job[1].toStdString(), job[2].toStdString()};
    return r;
}

void ChartsPanel::reload()
{
    m_overBox->setVisible(chartKind() == ChartKind::PassRate);
    // Hidden (a tab behind another, a window still being built): read when
    // next shown, not while the matrix paints.
    m_readOnShow = !isVisible();
    if (!m_readOnShow)
        m_loader->request(currentRequest());
}

void ChartsPanel::onLoaded(std::shared_ptr<const TrendsData> loaded)
{
    m_data = std::move(loaded);
    refillSelectors(*m_data);
    rebuildChart();
    emit chartShown();
}

void ChartsPanel::refillSelectors(const TrendsData& loaded)
{
    if (!loaded.error.empty())
        return; // keep what the user picked; the message says what went wrong
    const QSignalBlocker blockBackends(m_backendBox);
    const QSignalBlocker blockJobs(m_jobBox);
    const QString backend = m_backendBox->currentData().toString();
    m_backendBox->clear();
    m_backendBox->addItem(tr("All backends"), QString());
    for (const std::string& b : loaded.backends)
        m_backendBox->addItem(toQString(b), toQString(b));
    if (!backend.isEmpty() && m_backendBox->findData(backend) < 0)
        m_backendBox->addItem(backend, backend); // chosen, but quiet in this window
    m_backendBox->setCurrentIndex(std::max(0, m_backendBox->findData(backend)));

    const QVariant job = m_jobBox->currentData();
    m_jobBox->clear();
    m_jobBox->addItem(tr("All jobs"));
    for (const verdict::JobKey& j : loaded.jobs)
        m_jobBox->addItem(toQString(j.label(backend.isEmpty())), jobData(j));
    m_jobBox->setCurrentIndex(std::max(0, m_jobBox->findData(job)));
}

void ChartsPanel::rebuildChart()
{
    if (!m_data)
        return;
    const auto over = static_cast<PassRateOver>(m_overBox->currentData().toInt());
    std::unique_ptr<QChart> built = ChartBuilder(palette()).build(*m_data, over, m_marks);
    QChart* old = m_view->chart();
    m_chart = built.release();
    m_view->setChart(m_chart); // the view owns it now and gives up the old one
    delete old;
    m_view->setBackgroundBrush(palette().color(QPalette::Base));
    m_empty->setText(m_marks.emptyText);
    m_stack->setCurrentWidget(m_marks.emptyText.isEmpty() ? static_cast<QWidget*>(m_view)
                                                          : m_empty);
    m_note->setText(m_marks.note);
    m_note->setVisible(!m_marks.note.isEmpty());
    m_toolTip.clear();
    connectPoints();
}

void ChartsPanel::connectPoints()
{
    // Points are found by position (eventFilter); bars tell Qt's own hover.
    for (auto it = m_marks.barTips.cbegin(); it != m_marks.barTips.cend(); ++it) {
        auto* set = const_cast<QBarSet*>(it.key());
        const QStringList tips = it.value();
        connect(set, &QBarSet::hovered, this, [this, tips](bool state, int index) {
            showTip(state && index >= 0 && index < tips.size() ? tips[index] : QString());
        });
    }
}

std::optional<ChartsPanel::Hit> ChartsPanel::pointAt(QPoint viewportPos) const
{
    if (!m_chart || showsNoData())
        return std::nullopt;
    const QPointF at = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    std::optional<Hit> best;
    qreal bestDistance = kReachPixels;
    for (auto it = m_marks.points.cbegin(); it != m_marks.points.cend(); ++it) {
        auto* s = const_cast<QXYSeries*>(it.key());
        if (!s->isVisible())
            continue;
        for (int i = 0; i < s->count() && i < it.value().size(); ++i) {
            const qreal d = QLineF(at, m_chart->mapToPosition(s->at(i), s)).length();
            if (d <= bestDistance) {
                bestDistance = d;
                best = Hit{s, i};
            }
        }
    }
    return best;
}

void ChartsPanel::hoverAt(QPoint viewportPos)
{
    if (m_marks.points.isEmpty())
        return; // bar charts tip through QBarSet::hovered
    const std::optional<Hit> hit = pointAt(viewportPos);
    if (!hit) {
        showTip({});
        return;
    }
    // The tip goes beside the point, not wherever the pointer is.
    auto* s = const_cast<QXYSeries*>(hit->series);
    const QPointF scene = m_chart->mapToScene(m_chart->mapToPosition(s->at(hit->index), s));
    const QPoint global = m_view->viewport()->mapToGlobal(m_view->mapFromScene(scene));
    showTip(m_marks.points.value(hit->series).at(hit->index).tip, global + QPoint(8, 8));
}

void ChartsPanel::clickAt(QPoint viewportPos)
{
    const std::optional<Hit> hit = pointAt(viewportPos);
    if (!hit)
        return;
    const QString sha = m_marks.points.value(hit->series).at(hit->index).sha;
    if (!sha.isEmpty())
        emit commitActivated(sha);
}

bool ChartsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport()) {
        switch (event->type()) {
        case QEvent::MouseMove:
            hoverAt(static_cast<QMouseEvent*>(event)->position().toPoint());
            break;
        case QEvent::MouseButtonRelease:
            if (static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
                clickAt(static_cast<QMouseEvent*>(event)->position().toPoint());
            break;
        case QEvent::Leave:
            if (!m_marks.points.isEmpty())
                showTip({});
            break;
        default: break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ChartsPanel::showTip(const QString& text, std::optional<QPoint> at)
{
    m_toolTip = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(at.value_or(QCursor::pos()), plainToolTip(text), m_view);
}

bool ChartsPanel::showsNoData() const { return m_stack->currentWidget() == m_empty; }

QString ChartsPanel::noDataText() const { return showsNoData() ? m_empty->text() : QString(); }

QString ChartsPanel::note() const { return m_note->text(); }

bool ChartsPanel::exportPng(const QString& path)
{
    return m_stack->currentWidget()->grab().save(path, "PNG");
}

void ChartsPanel::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("chart.png"), tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (!exportPng(path))
        QMessageBox::warning(
            this, tr("Export chart"),
            tr("Could not write %1: check the folder exists and is writable.").arg(path));
}

void ChartsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuildChart(); // the chart's colours come from the palette
}

} // namespace relayhud::ui
