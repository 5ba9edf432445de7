#include "test_support.h"

#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QApplication>
#include <QStyle>
#include <QWidget>

namespace relayhud::ui::test {

namespace {

QStringList g_warnings;
QtMessageHandler g_previous = nullptr;
int g_active = 0;

void collect(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (context.category && QLatin1String(context.category) == QLatin1String("qt.modeltest")) {
        g_warnings.append(message);
        return;
    }
    if (g_previous)
        g_previous(type, context, message);
}

} // namespace

CheckedModel::CheckedModel(QAbstractItemModel* model)
{
    if (g_active++ == 0) {
        g_warnings.clear();
        g_previous = qInstallMessageHandler(collect);
    }
    m_tester = std::make_unique<QAbstractItemModelTester>(
        model, QAbstractItemModelTester::FailureReportingMode::Warning);
}

CheckedModel::~CheckedModel()
{
    m_tester.reset();
    if (--g_active == 0)
        qInstallMessageHandler(g_previous);
}

const QStringList& CheckedModel::warnings() const { return g_warnings; }

void keepPicture(QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("RELAYHUD_UI_SHOTS");
    if (!dir.isEmpty())
        widget.grab().save(dir + u'/' + name);
}

void keepPictures(QWidget& widget, const QString& name)
{
    keepPicture(widget, name + QStringLiteral(".png"));
    if (qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS"))
        return;
    const QPalette palette = QApplication::palette();
    const QString style = QApplication::style()->name();
    applyDarkPalette(*qApp);
    QApplication::processEvents();
    keepPicture(widget, name + QStringLiteral("_dark.png"));
    QApplication::setPalette(palette);
    QApplication::setStyle(style);
}

UpstreamCommit commit(const std::string& sha, EpochSeconds time, std::int64_t pr,
                      const std::string& branch, EventType event)
{
    UpstreamCommit c;
    c.sha = Sha{sha};
    c.time = time;
    c.prNumber = PrNumber{pr};
    c.branch = branch;
    c.eventType = event;
    return c;
}

QModelIndex jobCell(MatrixModel& model, const QAbstractItemModel& shown, const std::string& sha,
                    const std::string& backend, const std::string& job)
{
    for (const MatrixColumn& c : model.commits().columns)
        if (c.backend == backend && c.job == job)
            model.revealJob(c.backend, c.workflow, c.job);
    for (int r = 0; r < shown.rowCount(); ++r) {
        if (shown.headerData(r, Qt::Vertical, MatrixModel::ShaRole).toString().toStdString() != sha)
            continue;
        for (int c = 0; c < shown.columnCount(); ++c)
            if (shown.headerData(c, Qt::Horizontal, MatrixModel::BackendRole)
                        .toString()
                        .toStdString()
                    == backend
                && shown.headerData(c, Qt::Horizontal, MatrixModel::JobRole)
                           .toString()
                           .toStdString()
                       == job)
                return shown.index(r, c);
    }
    return {};
}

MatrixColumn column(const std::string& backend, const std::string& job, std::int64_t jobId,
                    Level level)
{
    return MatrixColumn{backend, level, "ci", job, JobRow{jobId}};
}

MatrixCell cell(Conclusion conclusion, std::int64_t rowId, std::uint8_t attempts)
{
    MatrixCell c;
    c.runRowId = CheckRunRow{rowId};
    c.status = RunStatus::Completed;
    c.conclusion = conclusion;
    c.attempts = attempts;
    c.durationSeconds = 60;
    if (attempts > 1)
        c.flags |= MatrixCell::Retried;
    return c;
}

MatrixCell running(std::int64_t rowId)
{
    MatrixCell c;
    c.runRowId = CheckRunRow{rowId};
    c.status = RunStatus::InProgress;
    c.attempts = 1;
    return c;
}

MatrixSnapshot snapshot(std::vector<UpstreamCommit> rows, std::vector<MatrixColumn> columns)
{
    MatrixSnapshot snap;
    snap.rows = std::move(rows);
    snap.columns = std::move(columns);
    snap.cells.resize(snap.rows.size() * snap.columns.size());
    return snap;
}

void setCell(MatrixSnapshot& snap, std::size_t row, std::size_t column, const MatrixCell& value)
{
    snap.cells[row * snap.columns.size() + column] = value;
}

} // namespace relayhud::ui::test
