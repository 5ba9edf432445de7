// The log view on a generated GitHub Actions log (1 GiB by default,
// RELAYHUD_BENCH_LOG_MB to change it), as a user meets it:
//   first screen    <= 100 ms from openFile() to a painted screen of lines
//                   (reference: `wc -l` on the same file, which reads it all)
//   paint a frame   <= 8 ms, worst of 200 page-downs and of 200 random jumps
//                   (reference: a QPlainTextEdit painting the same screen of text;
//                   the thread's CPU time is printed beside the wall time, which
//                   on a shared machine also counts other processes' turns)
//   resident memory after open and indexing, reported against 300 MB.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/store/database.h"
#include "relayhud/ui/logs/landmarks_model.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_structure_watcher.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTemporaryDir>

#include <array>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include <time.h>

namespace relayhud::bench {
namespace {

constexpr int kFrames = 200;

constexpr std::array<const char*, 8> kOps{"add", "mul",  "matmul",  "sum",
                                          "exp", "relu", "softmax", "where"};

// One line of a pytest job as the runner logs it; every 2000 lines a group,
// every 50,000 a failure section.
void appendLine(std::string& out, std::size_t i)
{
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "2026-07-29T%02zu:%02zu:%02zu.%07zuZ ", (i / 3'600'000) % 24,
                  (i / 60'000) % 60, (i / 1000) % 60, (i * 7919) % 10'000'000);
    out += stamp;
    if (i % 2000 == 0) {
        out += "##[group]Run python test/run_test.py --shard " + std::to_string(i / 2000) + "\n";
    } else if (i % 2000 == 1999) {
        out += "##[endgroup]\n";
    } else if (i % 50'000 == 700) {
        out += "____________ TestCommonCUDA.test_out_" + std::to_string(i) + " ____________\n"
               + stamp + "AssertionError: Tensor-likes are not close!\n";
    } else {
        out += "test_ops.py::TestCommonCUDA::test_compare_cpu_";
        out += kOps[i % kOps.size()];
        out += i % 3 == 0 ? "_cuda_float16 \x1b[32mPASSED\x1b[0m [0." : "_cuda_int64 PASSED [0.";
        out += std::to_string(1000 + (i * 31) % 9000) + "s] [ " + std::to_string(i % 100) + "%]\n";
    }
}

bool generateLog(const std::string& path, std::uint64_t bytes)
{
    std::ofstream out(path, std::ios::binary);
    std::string block;
    std::uint64_t written = 0;
    for (std::size_t i = 0; written < bytes; ++i) {
        appendLine(block, i);
        if (block.size() >= (8u << 20)) {
            out.write(block.data(), static_cast<std::streamsize>(block.size()));
            written += block.size();
            block.clear();
        }
    }
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    return static_cast<bool>(out);
}

double wcMs(const std::string& path)
{
    const auto start = Clock::now();
    const std::string command = "wc -l '" + path + "' > /dev/null";
    if (std::system(command.c_str()) != 0)
        return 0;
    return msSince(start);
}

// Opens the log in a shown viewer; the time until a frame with a screen of
// lines is painted.
double firstScreenMs(ui::LogViewer& viewer, const QString& path)
{
    ui::LogView* view = viewer.view();
    bool painted = false;
    const auto start = Clock::now();
    double ms = 0;
    const auto c = QObject::connect(view, &ui::LogView::framePainted, view, [&](int rows) {
        if (!painted && rows >= view->pageRows()) {
            painted = true;
            ms = msSince(start);
        }
    });
    viewer.openFile(path);
    while (!painted && msSince(start) < 30'000)
        QApplication::processEvents(QEventLoop::AllEvents, 1);
    QObject::disconnect(c);
    return painted ? ms : 30'000;
}

// CPU time of this thread: what a frame costs, without the time another
// process on a busy machine took the core away (wall time counts both).
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct FrameTimes {
    double median = 0;
    double p95 = 0;
    double worst = 0;
    int worstAt = 0;
    double cpuMedian = 0;
    double cpuWorst = 0;
};

template <class Move>
FrameTimes paintFrames(ui::LogView& view, Move move)
{
    std::vector<double> times;
    std::vector<double> cpu;
    for (int i = 0; i < kFrames; ++i) {
        move(i);
        const auto start = Clock::now();
        const double cpuStart = threadCpuMs();
        view.viewport()->repaint();
        cpu.push_back(threadCpuMs() - cpuStart);
        times.push_back(msSince(start));
    }
    const auto worst = std::max_element(times.begin(), times.end());
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    return {median(times), sorted[sorted.size() * 95 / 100],
            *worst,        static_cast<int>(worst - times.begin()),
            median(cpu),   *std::max_element(cpu.begin(), cpu.end())};
}

// A QPlainTextEdit showing the same screen of decoded text, repainted the
// same number of times: what painting a screen of text costs Qt itself.
double plainTextFrameMs(const LogFile& log, std::uint64_t first, int rows, const QSize& size)
{
    QString text;
    auto lines = log.lines(LineNumber{first}, static_cast<std::size_t>(rows));
    if (lines)
        for (const LogLine& l : *lines)
            text += QString::fromStdString(decodeLine(l.bytes).text) + u'\n';
    QPlainTextEdit edit;
    edit.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit.setLineWrapMode(QPlainTextEdit::NoWrap);
    edit.setPlainText(text);
    edit.resize(size);
    edit.show();
    QApplication::processEvents();
    std::vector<double> times;
    for (int i = 0; i < kFrames; ++i) {
        const auto start = Clock::now();
        edit.viewport()->repaint();
        times.push_back(msSince(start));
    }
    return median(times);
}

} // namespace

void benchLogView(Report& report)
{
    const int mb = envNumber("RELAYHUD_BENCH_LOG_MB", 1024);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("job.log")).toStdString();
    const auto generated = Clock::now();
    if (!generateLog(path, static_cast<std::uint64_t>(mb) << 20)) {
        std::printf("  cannot write %s\n", path.c_str());
        return;
    }
    std::printf("  generated a %d MB log in %.1f s\n", mb, msSince(generated) / 1000.0);
    const double wc = wcMs(path);
    const double rssBefore = residentMb();

    ui::LogViewer viewer;
    viewer.resize(1280, 900);
    viewer.show();
    QApplication::processEvents();
    const double firstScreen = firstScreenMs(viewer, QString::fromStdString(path));
    const auto indexing = Clock::now();
    while (!viewer.document()->progress().finished && msSince(indexing) < 120'000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    const auto& log = viewer.document()->file();
    std::printf("  indexed %llu lines in %.0f ms more after the first screen\n",
                static_cast<unsigned long long>(log->lineCount()), msSince(indexing));
    // Frames are timed on an idle viewer: the landmark scan reads the whole
    // file on two threads, on a machine that may have two cores.
    const auto scanning = Clock::now();
    while (!viewer.structureWatcher()->isFinished() && msSince(scanning) < 120'000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    std::printf("  landmark scan done %.0f ms later (%d landmarks)\n", msSince(scanning),
                viewer.landmarksModel()->rowCount());
    report.add({"log view: first screen after open", firstScreen, "ms", 100, "wc -l", wc});
    report.add({"log view: resident memory after open", residentMb(), "MB", 300, "before opening",
                rssBefore});

    ui::LogView& view = *viewer.view();
    view.setFocus();
    QScrollBar* bar = view.verticalScrollBar();
    const int page = view.pageRows();
    const FrameTimes down = paintFrames(view, [&](int) { bar->setValue(bar->value() + page); });
    std::mt19937 rng(42);
    const FrameTimes jumps = paintFrames(view, [&](int) {
        bar->setValue(static_cast<int>(rng() % static_cast<unsigned>(bar->maximum() + 1)));
    });
    const FrameTimes still = paintFrames(view, [](int) {});
    std::printf("  repainting the same screen: median %.2f ms\n", still.median);
    std::vector<double> reads;
    for (int i = 0; i < kFrames; ++i) {
        const auto start = Clock::now();
        auto lines =
            log->lines(LineNumber{rng() % log->lineCount()}, static_cast<std::size_t>(page));
        reads.push_back(msSince(start));
    }
    std::printf("  the engine alone reading a screen at random: median %.2f ms, worst %.2f ms\n",
                median(reads), *std::max_element(reads.begin(), reads.end()));

    view.setWrap(true);
    const FrameTimes wrapped = paintFrames(view, [&](int) {
        bar->setValue(static_cast<int>(rng() % static_cast<unsigned>(bar->maximum() + 1)));
    });
    view.setWrap(false);
    for (const auto& [name, t] : {std::pair{"page down", down}, std::pair{"random jump", jumps},
                                  std::pair{"wrapped jump", wrapped}})
        std::printf("  %s: wall median %.2f, p95 %.2f, worst %.2f ms (frame %d); "
                    "thread CPU median %.2f, worst %.2f ms\n",
                    name, t.median, t.p95, t.worst, t.worstAt, t.cpuMedian, t.cpuWorst);
    const double plain =
        plainTextFrameMs(*log, log->lineCount() / 2, page, view.viewport()->size());
    std::printf("  %d rows a frame; QPlainTextEdit repainting the same screen: median %.2f ms\n",
                page, plain);
    report.add(
        {"log view: page down, worst frame", down.worst, "ms", 8, "QPlainTextEdit frame", plain});
    report.add({"log view: random jump, worst frame", jumps.worst, "ms", 8, "QPlainTextEdit frame",
                plain});
    report.add({"log view: wrapped random jump, worst frame", wrapped.worst, "ms", 8,
                "QPlainTextEdit frame", plain});
}

} // namespace relayhud::bench
