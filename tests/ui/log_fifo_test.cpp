// A FIFO given as a log (issue 35): `relayhud://log?path=FIFO` blocked a
// thread of Qt's global pool in open() for good, and painting waits on that
// pool (QImage's smooth scaling splits its work over it): two such links froze
// the window. Now each log window says why in one line, at once, and the
// window keeps painting; file work runs on its own pool (logs/file_work_pool.h).
#include "relayhud/ui/logs/file_work_pool.h"
#include "relayhud/ui/logs/log_link.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"
#include "relayhud/ui/logs/log_window.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/main_window.h"

#include "sim_session.h"
#include "test_support.h"

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <gmock/gmock.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <vector>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

// A refusal takes microseconds; a freeze is forever. Far above a frame
// (16 ms) so a loaded machine does not fail the test, far below a freeze.
constexpr int kResponsiveMs = 1000;

QString placeholderOf(LogWindow* window) { return window->viewer()->view()->placeholderText(); }

// A reader that blocked in open() (before the fix) is let go by a writer's
// open, so a failing test ends instead of leaving the pool stuck.
class Fifos {
public:
    explicit Fifos(const QTemporaryDir& dir, int count)
    {
        for (int i = 0; i < count; ++i) {
            m_paths << dir.filePath(QStringLiteral("job-%1.log").arg(i));
            EXPECT_EQ(::mkfifo(QFile::encodeName(m_paths.back()).constData(), 0600), 0);
        }
    }
    ~Fifos()
    {
        for (const QString& path : m_paths)
            for (int i = 0; i < 4; ++i)
                if (const int fd = ::open(QFile::encodeName(path).constData(),
                                          O_WRONLY | O_NONBLOCK | O_CLOEXEC);
                    fd >= 0)
                    ::close(fd);
    }
    const QStringList& paths() const { return m_paths; }

private:
    QStringList m_paths;
};

// Milliseconds for the event loop to run a queued timer.
qint64 eventLoopTurnMs()
{
    QElapsedTimer clock;
    clock.start();
    bool fired = false;
    QTimer::singleShot(0, [&fired] { fired = true; });
    if (!QTest::qWaitFor([&fired] { return fired; }, kResponsiveMs))
        return -1;
    return clock.elapsed();
}

} // namespace

TEST(LogFifo, TwoFifoLinksSayWhyInOneLineAndTheWindowKeepsPainting)
{
    QTemporaryDir dir;
    const Fifos fifos(dir, 2);
    MainWindow mainWindow(test::offlineSession(dir.filePath(QStringLiteral("cache.sqlite"))));
    mainWindow.resize(1200, 800);
    mainWindow.show();
    std::vector<LogWindow*> logs;
    QObject::connect(mainWindow.logs(), &LogsCoordinator::logOpened, &mainWindow,
                     [&logs](LogWindow* window) { logs.push_back(window); });
    QStringList links;
    for (const QString& path : fifos.paths())
        links << logLinkUrl({path, LineNumber{0}, LineNumber{0}});
    mainWindow.logs()->openPaths(links);
    ASSERT_EQ(logs.size(), 2u);

    for (std::size_t i = 0; i < logs.size(); ++i) {
        const QString want = QStringLiteral("Cannot open the log: %1 is a FIFO, not a regular "
                                            "file; a job log must be one")
                                 .arg(fifos.paths()[static_cast<qsizetype>(i)]);
        EXPECT_TRUE(QTest::qWaitFor([&] { return placeholderOf(logs[i]) == want; }, kResponsiveMs))
            << placeholderOf(logs[i]).toStdString();
        // Nothing was read, so the failures panel claims nothing either.
        QStringList labels;
        for (const QLabel* label : logs[i]->findChildren<QLabel*>())
            labels << label->text();
        EXPECT_TRUE(labels.contains(QStringLiteral("Failures: not read")))
            << labels.join(u'|').toStdString();
        EXPECT_FALSE(labels.contains(QStringLiteral("Failures: none found")));
    }
    // The pool painting waits on is free: a job there runs at once...
    auto job = QtConcurrent::run([] { return 1; });
    // (Stop here if not: the scale below would wait on a stuck pool for good.)
    ASSERT_TRUE(QTest::qWaitFor([&job] { return job.isFinished(); }, kResponsiveMs));
    // ...so a smooth scale (split over that pool) and a paint of the window end.
    QElapsedTimer clock;
    clock.start();
    QImage big(3000, 2000, QImage::Format_ARGB32_Premultiplied);
    big.fill(Qt::darkCyan);
    const QImage small = big.scaled(1500, 1000, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    const QPixmap shot = mainWindow.grab();
    const qint64 paintMs = clock.elapsed();
    EXPECT_EQ(small.width(), 1500);
    EXPECT_FALSE(shot.isNull());
    EXPECT_LT(paintMs, kResponsiveMs);
    const qint64 turnMs = eventLoopTurnMs();
    EXPECT_GE(turnMs, 0);
    EXPECT_LT(turnMs, kResponsiveMs);
    std::printf("two FIFO links refused; a scale and a paint took %lld ms, an event-loop turn "
                "%lld ms\n",
                static_cast<long long>(paintMs), static_cast<long long>(turnMs));
    logs.back()->resize(900, 300);
    test::keepPictures(*logs.back(), QStringLiteral("log_fifo_refused"));
    for (LogWindow* window : logs)
        window->close();
}

// Log files open on their own pool: with every thread of Qt's global pool
// busy (as painting may keep it), a log still opens.
TEST(LogFifo, LogsOpenWhileQtsGlobalPoolIsBusy)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("job.log"));
    std::ofstream(QFile::encodeName(path).toStdString()) << "one\ntwo\nthree\n";
    QThreadPool* global = QThreadPool::globalInstance();
    ASSERT_NE(fileWorkPool(), global);
    QSemaphore release;
    QSemaphore started;
    const int threads = global->maxThreadCount();
    for (int i = 0; i < threads; ++i)
        global->start([&] {
            started.release();
            release.acquire();
        });
    ASSERT_TRUE(started.tryAcquire(threads, 10000));

    LogWindow window;
    QSignalSpy opened(window.viewer(), &LogViewer::opened);
    window.openFile(path);
    const bool ok = opened.count() > 0 || opened.wait(kResponsiveMs * 5);
    release.release(threads);
    ASSERT_TRUE(ok);
    EXPECT_TRUE(opened.first().first().toBool()) << opened.first().last().toString().toStdString();
    global->waitForDone();
}
