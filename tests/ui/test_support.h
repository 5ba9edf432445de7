#pragma once
// Helpers for the UI tests: model-tester warnings as test failures, and
// small hand-made matrix snapshots.
#include "relayhud/model/matrix_snapshot.h"

#include <QAbstractItemModelTester>
#include <QStringList>

class QAbstractItemModel;
class QModelIndex;
class QWidget;

#include <memory>
#include <string>
#include <vector>

namespace relayhud::ui {
class MatrixModel;
}

namespace relayhud::ui::test {

// How long a test waits for something that must happen (a sync, a signal,
// a repaint): far beyond what it takes, so that only a real failure waits it out.
inline constexpr int kWaitMs = 60000;

// The cell of `job` (of `backend`) on `sha` in `shown` (a view of `model`),
// opening the shard group it is folded into as a click on the group would;
// invalid when the matrix has no such cell.
QModelIndex jobCell(MatrixModel& model, const QAbstractItemModel& shown, const std::string& sha,
                    const std::string& backend, const std::string& job);

// Runs QAbstractItemModelTester in Warning mode and collects what it says
// (category qt.modeltest), so a test can assert that it said nothing.
class CheckedModel {
public:
    explicit CheckedModel(QAbstractItemModel* model);
    ~CheckedModel();
    CheckedModel(const CheckedModel&) = delete;
    CheckedModel& operator=(const CheckedModel&) = delete;

    const QStringList& warnings() const;

private:
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

// With RELAYHUD_UI_SHOTS=DIR set, saves a picture of `widget` there, for
// looking at the views as a user would.
void keepPicture(QWidget& widget, const QString& name);
// keepPicture as `name`.png, then again in the dark palette as `name`_dark.png.
void keepPictures(QWidget& widget, const QString& name);

UpstreamCommit commit(const std::string& sha, EpochSeconds time, std::int64_t pr = 0,
                      const std::string& branch = "main", EventType event = EventType::PullRequest);
MatrixColumn column(const std::string& backend, const std::string& job, std::int64_t jobId,
                    Level level = Level::L4);
MatrixCell cell(Conclusion conclusion, std::int64_t rowId, std::uint8_t attempts = 1);
MatrixCell running(std::int64_t rowId);

// Empty cells for every row and column.
MatrixSnapshot snapshot(std::vector<UpstreamCommit> rows, std::vector<MatrixColumn> columns);
void setCell(MatrixSnapshot& snap, std::size_t row, std::size_t column, const MatrixCell& value);

} // namespace relayhud::ui::test
