// The config editor tests' cache (config_editor_fixture.h).
#include "config_editor_fixture.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

#include <utility>

namespace relayhud::ui::test::config_editor {

void ConfigEditor::fillCache()
{
    auto cache = Database::open(m_cachePath.toStdString());
    ASSERT_TRUE(cache) << cache.message();
    for (int n = 1; n <= 10; ++n) {
        CheckRun run;
        run.downstreamRepo = "torch-spyre/torch-spyre";
        run.upstreamSha = Sha{std::string(39, 'a') + std::to_string(n % 10)};
        run.workflow = "CI";
        run.jobName = "test (beta, 1, 1)";
        run.runId = "run-" + std::to_string(n);
        run.runAttempt = 1;
        run.checkRunId = CheckRunId{"cr-" + std::to_string(n)};
        run.reported.status = RunStatus::Completed;
        run.reported.conclusion = Conclusion::Failure;
        UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, 1000 * n, "", ""};
        ASSERT_TRUE(RunStore(**cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
        auto row = RunStore(**cache).checkRunRowFor(run.checkRunId);
        ASSERT_TRUE(row && *row);
        auto writer =
            TestResultStore(**cache).beginTestRun({**row, TestRunSource::Artifacts, "a", "u"});
        ASSERT_TRUE(writer);
        for (const auto& [name, outcome] :
             {std::pair{std::string("test_is_signed"), TestOutcome::Failed},
              {std::string("test_item"), n % 3 ? TestOutcome::XFailed : TestOutcome::Passed}}) {
            TestCaseResult c;
            c.file = "test/test_torch.py";
            c.className = "TestTorchDeviceTypePRIVATEUSE1";
            c.name = name + "_spyre";
            c.identity = c.file + "::" + c.className + "::" + c.name;
            c.baseName = "TestTorchDeviceType::" + name;
            c.outcome = outcome;
            ASSERT_TRUE((*writer)->add(c));
        }
        ASSERT_TRUE((*writer)->commit({}));
    }
}

} // namespace relayhud::ui::test::config_editor
