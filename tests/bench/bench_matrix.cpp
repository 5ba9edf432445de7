// Matrix speed: a cache of 1,000 SHAs x 300 jobs turned into the UI model
// (its 30 shards per backend grouped, the default), a switch to the Pull
// requests view and back, and full-viewport repaints of the matrix view with
// every job its own column. References: a bare SQLite scan of the same rows,
// a plain copy of the snapshot, and a plain QTableView painting the same
// model.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"

#include <QImage>
#include <QScrollBar>
#include <QTableView>

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace relayhud::bench {
namespace {

constexpr int kCommits = 1000;
constexpr int kBackends = 10;
constexpr int kJobsPerBackend = 30;

void fillCache(Database& cache)
{
    std::mt19937 rng(42);
    for (int first = 0; first < kCommits; first += 50) {
        SyncBatch batch;
        for (int c = first; c < first + 50; ++c) {
            const std::string sha = "c" + std::to_string(100000 + c) + std::string(33, 'a');
            for (int b = 0; b < kBackends; ++b) {
                for (int j = 0; j < kJobsPerBackend; ++j) {
                    CheckRun run;
                    run.downstreamRepo = "org" + std::to_string(b) + "/backend";
                    run.upstreamSha = Sha{sha};
                    run.prNumber = 160000 + c;
                    run.workflow = "CI";
                    run.jobName = "test (default, " + std::to_string(j + 1) + ", 30, linux.accel)";
                    run.runId = std::to_string(1000000 + c * 100 + b);
                    run.reported.status = RunStatus::Completed;
                    run.reported.conclusion =
                        rng() % 10 == 0 ? Conclusion::Failure : Conclusion::Success;
                    run.reported.startedAt = 1'760'000'000 + c * 600;
                    run.reported.completedAt = *run.reported.startedAt + 900;
                    batch.runs.push_back(run);
                    if (rng() % 30 == 0) {
                        run.runAttempt = 2;
                        run.reported.conclusion = Conclusion::Success;
                        batch.runs.push_back(run);
                    }
                }
            }
        }
        if (auto r = RunStore(cache).apply(batch); !r)
            std::fprintf(stderr, "fill failed: %s\n", r.message().c_str());
    }
}

double scanReference(const std::string& path)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const auto start = Clock::now();
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(
        db,
        "SELECT commit_id, job_id, run_attempt, status, conclusion, started_at, completed_at"
        " FROM check_run",
        -1, &st, nullptr);
    std::int64_t sum = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        sum += sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    const double ms = msSince(start);
    sqlite3_close(db);
    if (sum == 0)
        std::fprintf(stderr, "reference scan read no rows\n");
    return ms;
}

// Average time to paint the whole viewport into an image at random scroll
// positions (render() paints even where the platform exposes no window).
double repaintMs(QTableView& view)
{
    std::mt19937 rng(7);
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    view.viewport()->render(&image); // warm caches (fonts, glyphs)
    constexpr int kFrames = 60;
    const auto start = Clock::now();
    for (int i = 0; i < kFrames; ++i) {
        auto* v = view.verticalScrollBar();
        auto* h = view.horizontalScrollBar();
        v->setValue(static_cast<int>(rng() % static_cast<unsigned>(v->maximum() + 1)));
        h->setValue(static_cast<int>(rng() % static_cast<unsigned>(h->maximum() + 1)));
        view.viewport()->render(&image);
    }
    return msSince(start) / kFrames;
}

} // namespace

void benchMatrix(Report& report)
{
    const auto dir = std::filesystem::temp_directory_path() / "relayhud-bench-matrix";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "cache.sqlite").string();
    auto cache = Database::open(path);
    if (!cache) {
        std::fprintf(stderr, "%s\n", cache.message().c_str());
        return;
    }
    auto fillStart = Clock::now();
    fillCache(**cache);
    std::printf("  filled a cache of %d SHAs x %d jobs in %.0f ms\n", kCommits,
                kBackends * kJobsPerBackend, msSince(fillStart));

    const double rssBefore = residentMb();
    ui::MatrixModel model;
    const auto start = Clock::now();
    auto snapshot = MatrixStore(**cache).loadMatrix(MatrixQuery{});
    if (!snapshot) {
        std::fprintf(stderr, "%s\n", snapshot.message().c_str());
        return;
    }
    const double snapshotMs = msSince(start);
    model.merge(std::move(snapshot.value()));
    const double buildMs = msSince(start);
    std::printf("  of which cache snapshot %.1f ms, model merge %.1f ms\n", snapshotMs,
                buildMs - snapshotMs);
    const double rssAfter = residentMb();
    std::printf("  model: %d rows x %d columns\n", model.rowCount(), model.columnCount());
    const double scanMs = scanReference(path);
    report.add({"matrix model from 1,000 x 300 cache", buildMs, "ms", 150,
                "bare SQLite scan of the same rows", scanMs});

    // One view switch is one GUI-thread step: within a frame.
    const auto copyStart = Clock::now();
    const MatrixSnapshot copy = model.commits();
    const double copyMs = msSince(copyStart);
    const auto switchStart = Clock::now();
    model.setPullRequestView(true);
    model.setPullRequestView(false);
    const double switchMs = msSince(switchStart) / 2;
    std::printf("  grouped: %d columns; a copy of the snapshot: %zu cells\n", model.columnCount(),
                copy.cells.size());
    report.add({"view switch (PR rows, shards grouped)", switchMs, "ms", 16,
                "plain copy of the same snapshot", copyMs});
    model.setShardGrouping(false); // the repaint below: every job its own column
    // What the model keeps: the commits as merged and what it shows.
    double dataMb = 0;
    for (const MatrixSnapshot* snap : {&model.commits(), &model.snapshot()})
        dataMb += static_cast<double>(snap->cells.size() * sizeof(MatrixCell)
                                      + snap->rows.size() * sizeof(UpstreamCommit)
                                      + snap->columns.size() * sizeof(MatrixColumn))
                  / (1024.0 * 1024.0);
    std::printf("  resident memory grew by %.1f MB while building\n", rssAfter - rssBefore);
    report.add({"matrix model memory (snapshot data)", dataMb, "MB", 100, "", 0});

    ui::MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    ui::MatrixView view;
    view.setModel(&proxy);
    view.resize(1920, 1080);
    view.show();
    QTableView plain;
    plain.setModel(&model);
    plain.resize(1920, 1080);
    plain.show();
    const double ours = repaintMs(view);
    const double reference = repaintMs(plain);
    report.add({"full viewport repaint (1920x1080)", ours, "ms", 8, "plain QTableView, same model",
                reference});
    std::filesystem::remove_all(dir);
}

} // namespace relayhud::bench
