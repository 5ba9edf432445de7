#include "relayhud/ui/results/test_results_controller.h"

#include <QMetaObject>

namespace relayhud::ui {

TestResultsController::TestResultsController(QObject* parent)
    : QObject(parent), m_worker(new TestResultsWorker(m_shutdownFlag, m_latest, m_abortFetch))
{
    qRegisterMetaType<TestsLoadRequest>();
    qRegisterMetaType<std::shared_ptr<const TestsPanelData>>();
    qRegisterMetaType<TestHistory>();
    qRegisterMetaType<Ticket>();
    m_thread.setObjectName(QStringLiteral("test results"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TestResultsWorker::fetching, this,
            [this](Ticket ticket, const QString& what) {
                if (ticket == m_latest.load())
                    emit fetching(ticket, what);
            });
    connect(m_worker, &TestResultsWorker::loaded, this,
            [this](const std::shared_ptr<const TestsPanelData>& data) {
                if (data->ticket == m_latest.load())
                    emit loaded(data);
            });
    connect(m_worker, &TestResultsWorker::loadFailed, this,
            [this](Ticket ticket, const QString& why) {
                if (ticket == m_latest.load())
                    emit loadFailed(ticket, why);
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

Ticket TestResultsController::nextLoad()
{
    const Ticket ticket{m_latest.load().value + 1};
    m_latest = ticket;
    m_abortFetch = true; // a fetch for an older load is not worth waiting for
    return ticket;
}

Ticket TestResultsController::post(TestsLoadRequest request)
{
    request.ticket = nextLoad();
    request.cachePath = m_cachePath;
    request.access = m_access;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, request] { worker->load(request); });
    return request.ticket;
}

Ticket TestResultsController::loadRun(CheckRunRow checkRunRow, bool fetchIfMissing)
{
    TestsLoadRequest request;
    request.checkRunRow = checkRunRow;
    request.fetchIfMissing = fetchIfMissing;
    return post(std::move(request));
}

Ticket TestResultsController::loadTestRun(TestRunId testRunId)
{
    TestsLoadRequest request;
    request.testRunId = testRunId;
    return post(std::move(request));
}

void TestResultsController::loadText(Ticket ticket, TestMessageId textId)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, ticket, textId] { worker->loadText(ticket, textId); });
}

void TestResultsController::loadHistory(Ticket ticket, CheckRunRow checkRunRow, TestId testId,
                                        int shas)
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, ticket, checkRunRow, testId, shas] {
        worker->loadHistory(ticket, checkRunRow, testId, shas);
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
