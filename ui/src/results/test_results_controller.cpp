#include "relayhud/ui/results/test_results_controller.h"

#include <QMetaObject>

namespace relayhud::ui {

TestResultsController::TestResultsController(QObject* parent)
    : QObject(parent), m_worker(new TestResultsWorker(m_shutdownFlag, m_latest, m_abortFetch))
{
    qRegisterMetaType<TestsLoadRequest>();
    qRegisterMetaType<std::shared_ptr<const TestsPanelData>>();
    qRegisterMetaType<TestHistory>();
    m_thread.setObjectName(QStringLiteral("test results"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TestResultsWorker::fetching, this, [this](qint64 id, const QString& what) {
        if (id == m_latest.load())
            emit fetching(id, what);
    });
    connect(m_worker, &TestResultsWorker::loaded, this,
            [this](const std::shared_ptr<const TestsPanelData>& data) {
                if (data->loadId == m_latest.load())
                    emit loaded(data);
            });
    connect(m_worker, &TestResultsWorker::loadFailed, this, [this](qint64 id, const QString& why) {
        if (id == m_latest.load())
            emit loadFailed(id, why);
    });
    connect(m_worker, &TestResultsWorker::textLoaded, this, &TestResultsController::textLoaded);
    connect(m_worker, &TestResultsWorker::historyLoaded, this,
            &TestResultsController::historyLoaded);
    connect(m_worker, &TestResultsWorker::imported, this, &TestResultsController::imported);
    connect(m_worker, &TestResultsWorker::importFailed, this, &TestResultsController::importFailed);
    connect(m_worker, &TestResultsWorker::jobLogReady, this, &TestResultsController::jobLogReady);
    connect(m_worker, &TestResultsWorker::jobLogFailed, this, &TestResultsController::jobLogFailed);
    m_thread.start();
}

TestResultsController::~TestResultsController() { shutdown(); }

void TestResultsController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_shutdownFlag = true;
    m_abortFetch = true;
    m_thread.quit();
    m_thread.wait();
}

void TestResultsController::setAccess(const std::string& cachePath, const ArtifactAccess& access)
{
    m_cachePath = cachePath;
    m_access = access;
}

qint64 TestResultsController::nextLoad()
{
    const qint64 id = m_latest.load() + 1;
    m_latest = id;
    m_abortFetch = true; // a fetch for an older load is not worth waiting for
    return id;
}

qint64 TestResultsController::post(TestsLoadRequest request)
{
    request.loadId = nextLoad();
    request.cachePath = m_cachePath;
    request.access = m_access;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, request] { worker->load(request); });
    return request.loadId;
}

qint64 TestResultsController::loadRun(CheckRunRow checkRunRow, bool fetchIfMissing)
{
    TestsLoadRequest request;
    request.checkRunRow = checkRunRow;
    request.fetchIfMissing = fetchIfMissing;
    return post(std::move(request));
}

qint64 TestResultsController::loadTestRun(TestRunId testRunId)
{
    TestsLoadRequest request;
    request.testRunId = testRunId;
    return post(std::move(request));
}

void TestResultsController::loadText(qint64 loadId, TestMessageId textId)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, loadId, textId] { worker->loadText(loadId, textId); });
}

void TestResultsController::loadHistory(qint64 loadId, CheckRunRow checkRunRow, std::int64_t testId,
                                        int shas)
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, loadId, checkRunRow, testId, shas] {
        worker->loadHistory(loadId, checkRunRow, testId, shas);
    });
}

void TestResultsController::importPaths(const QStringList& paths)
{
    const QString cache = QString::fromStdString(m_cachePath);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, cache, paths] { worker->importPaths(cache, paths); });
}

qint64 TestResultsController::loadJobLog(CheckRunRow checkRunRow)
{
    const qint64 id = ++m_lastLogRequest;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, id, cache = m_cachePath, access = m_access, checkRunRow] {
            worker->loadJobLog(id, cache, access, checkRunRow);
        });
    return id;
}

void TestResultsController::clear() { nextLoad(); }

} // namespace relayhud::ui
