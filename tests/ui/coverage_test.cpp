// The Coverage tab and its parts (issue 7): the verdict banner, the bucket
// table, the tests behind the verdict (a missing mandatory test opens its
// config entry), the op x dtype heatmap, the commit views of the matrix
// (nightly/periodic, release/*), the verdict marks' roles and the coverage
// settings page.
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/coverage/op_dtype_heatmap.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/coverage_settings_page.h"

#include "../core/verdict_test_support.h"
#include "test_support.h"

#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gmock/gmock.h>

#include <fstream>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::verdict::test;
using namespace relayhud::ui::test;

namespace {

verdict::RunVerdict judged(const std::vector<StoredTestResult>& results)
{
    return verdict::computeVerdict(inputFor(results), results);
}

// test_mul (mandatory) never ran: green, incomplete.
std::vector<StoredTestResult> withoutMul()
{
    std::vector<StoredTestResult> out;
    for (const StoredTestResult& r : goodResults())
        if (r.baseName != "TestOps::test_mul")
            out.push_back(r);
    return out;
}

CoveragePanel& panelWith(CoveragePanel& panel, const verdict::RunVerdict& v)
{
    verdict::VerdictSources sources;
    sources.configByRepo[v.run.downstreamRepo] = "/checkout/tests/ops.yaml";
    panel.setSources(sources);
    panel.showVerdict(v);
    panel.resize(520, 900);
    return panel;
}

QStringList children(QTreeWidgetItem* group)
{
    QStringList out;
    for (int i = 0; group && i < group->childCount(); ++i)
        out << group->child(i)->text(0);
    return out;
}

} // namespace

TEST(CoveragePanel, VerifiedGreenShowsItsBucketsAndNothingMissing)
{
    const verdict::RunVerdict v = judged(goodResults());
    ASSERT_EQ(v.verdict, verdict::Verdict::VerifiedGreen);
    CoveragePanel panel;
    panelWith(panel, v);
    EXPECT_EQ(panel.banner()->text(), QStringLiteral("Verified green"));
    QTableWidget* buckets = panel.bucketTable();
    ASSERT_EQ(buckets->rowCount(), 4); // skip never reaches a report
    EXPECT_EQ(buckets->item(0, 0)->text(), QStringLiteral("mandatory_success"));
    EXPECT_EQ(buckets->item(0, 1)->text(), QStringLiteral("3")); // add, mul, scan_*
    EXPECT_EQ(buckets->item(0, 2)->text(), QStringLiteral("4"));
    EXPECT_EQ(buckets->item(0, 3)->text(), QStringLiteral("0"));
    // Words a newcomer reads: what each column counts, what each mode expects.
    EXPECT_EQ(buckets->horizontalHeaderItem(3)->text(), QStringLiteral("Listed, did not run"));
    EXPECT_EQ(buckets->horizontalHeaderItem(4)->text(), QStringLiteral("Against the mode"));
    EXPECT_EQ(buckets->item(0, 0)->toolTip(),
              QStringLiteral("mandatory_success: must pass (a skip counts as not run)"));
    EXPECT_EQ(buckets->item(0, 4)->toolTip(),
              QStringLiteral("0 mandatory_success cases did not pass"));
    EXPECT_EQ(panel.missingGroup(), nullptr);
    keepPicture(panel, QStringLiteral("coverage-verified.png"));
}

TEST(CoveragePanel, IncompleteGreenListsTheMissingTestAndAClickOpensItsEntry)
{
    const verdict::RunVerdict v = judged(withoutMul());
    ASSERT_EQ(v.verdict, verdict::Verdict::GreenIncomplete);
    CoveragePanel panel;
    panelWith(panel, v);
    panel.show();
    EXPECT_EQ(panel.banner()->text(), QStringLiteral("Green, incomplete"));
    EXPECT_EQ(panel.bucketTable()->item(0, 3)->text(), QStringLiteral("1"));
    // The number worth acting on, in a sentence under the table.
    const auto* note = panel.findChild<QLabel*>(QStringLiteral("bucketsNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->text().startsWith(
        QStringLiteral("1 mandatory_success listings did not run (listed below).")))
        << note->text().toStdString();
    ASSERT_NE(panel.missingGroup(), nullptr);
    EXPECT_THAT(children(panel.missingGroup()),
                ::testing::ElementsAre(QStringLiteral("TestOps::test_mul")));
    QSignalSpy opened(&panel, &CoveragePanel::missingTestActivated);
    QTreeWidgetItem* item = panel.missingGroup()->child(0);
    const QRect rect = panel.testsTree()->visualItemRect(item);
    QTest::mouseClick(panel.testsTree()->viewport(), Qt::LeftButton, {}, rect.center());
    ASSERT_EQ(opened.count(), 1);
    EXPECT_EQ(opened.at(0).at(0).toString(), QStringLiteral("/checkout/tests/ops.yaml"));
    EXPECT_EQ(opened.at(0).at(1).toString(), QStringLiteral("TestOps::test_mul"));
    EXPECT_GT(opened.at(0).at(2).toInt(), 0); // its line in the config
    keepPicture(panel, QStringLiteral("coverage-incomplete.png"));
}

TEST(CoveragePanel, DisputedGreenNamesTheFailingMandatoryTestAndItsIdentityIsSelectable)
{
    std::vector<StoredTestResult> results = goodResults();
    results[2].outcome = TestOutcome::Failed; // test_mul
    verdict::VerdictInput in = inputFor(results);
    in.run.reported.tests = honestCounts(goodResults()); // the row still says all passed
    const verdict::RunVerdict v = verdict::computeVerdict(in, results);
    ASSERT_EQ(v.verdict, verdict::Verdict::GreenDisputed);
    CoveragePanel panel;
    panelWith(panel, v);
    EXPECT_EQ(panel.banner()->text(), QStringLiteral("Green, disputed"));
    const QLabel* reasons = panel.findChild<QLabel*>(QStringLiteral("verdictReasons"));
    ASSERT_NE(reasons, nullptr);
    EXPECT_TRUE(reasons->isVisibleTo(&panel));
    EXPECT_FALSE(reasons->text().isEmpty());
    const QLabel* checks = panel.findChild<QLabel*>(QStringLiteral("verdictChecks"));
    EXPECT_THAT(checks->text().toStdString(), ::testing::HasSubstr("FAIL"));
    QTreeWidgetItem* notPassed = nullptr;
    for (int i = 0; i < panel.testsTree()->topLevelItemCount(); ++i)
        if (panel.testsTree()->topLevelItem(i)->text(0).contains(QStringLiteral("did not pass")))
            notPassed = panel.testsTree()->topLevelItem(i);
    ASSERT_NE(notPassed, nullptr);
    ASSERT_EQ(notPassed->childCount(), 1);
    QSignalSpy selected(&panel, &CoveragePanel::testActivated);
    panel.testsTree()->setCurrentItem(notPassed->child(0));
    emit panel.testsTree()->itemClicked(notPassed->child(0), 0);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.at(0).at(0).toString().toStdString(), results[2].identity);
}

TEST(CoveragePanel, WithoutConfigOrResultsSaysWhyNothingIsCompared)
{
    verdict::VerdictInput in = inputFor(goodResults());
    in.config = {};
    const verdict::RunVerdict v = verdict::computeVerdict(in, goodResults());
    ASSERT_EQ(v.verdict, verdict::Verdict::GreenUnverifiable);
    CoveragePanel panel;
    panel.showVerdict(v);
    EXPECT_EQ(panel.banner()->text(), QStringLiteral("Green, unverifiable"));
    EXPECT_TRUE(panel.bucketTable()->isHidden());
    EXPECT_EQ(panel.missingGroup(), nullptr);
}

TEST(OpDtypeHeatmap, CellsCountWhatRanAndNameUnsupportedAndNeverRan)
{
    std::vector<StoredTestResult> results = goodResults();
    results.push_back(result("test_add", "add", "int64")); // dtype not supported
    results.push_back(result("test_add", "add", "float16", TestOutcome::Failed));
    const verdict::RunVerdict v = judged(results);
    OpDtypeHeatmap map;
    map.setCoverage(v.coverage);
    EXPECT_THAT(map.ops(), ::testing::IsSupersetOf({QStringLiteral("add"), QStringLiteral("mul"),
                                                    QStringLiteral("scan")}));
    EXPECT_TRUE(map.dtypes().contains(QStringLiteral("int64")));
    const int add = static_cast<int>(map.ops().indexOf(QStringLiteral("add")));
    const int f16 = static_cast<int>(map.dtypes().indexOf(QStringLiteral("float16")));
    EXPECT_EQ(map.cellText(add, f16), QStringLiteral("add × float16: 2 ran, 1 passed, 1 failed"));
    const int i64 = static_cast<int>(map.dtypes().indexOf(QStringLiteral("int64")));
    EXPECT_THAT(map.cellText(add, i64).toStdString(),
                ::testing::HasSubstr("int64 is not in supported_dtypes"));
    EXPECT_EQ(map.cellText(-1, 0), QString());
    EXPECT_EQ(map.cellToolTip(-1, 0), QString());
    EXPECT_GT(map.sizeHint().width(), 0);
    keepPicture(map, QStringLiteral("coverage-heatmap.png"));
}

// Ops and dtypes come from JUnit tags CI writes: markup in them is shown as
// text, never rendered (an <img> or a fake "APPROVED" banner).
TEST(OpDtypeHeatmap, MarkupInATagIsShownAsTextNotRendered)
{
    const QString planted = QStringLiteral("<img src=x><h1>APPROVED</h1>");
    std::vector<StoredTestResult> results = goodResults();
    results.push_back(result("test_x", planted.toStdString(), "float16"));
    OpDtypeHeatmap map;
    map.setCoverage(judged(results).coverage);
    const int op = static_cast<int>(map.ops().indexOf(planted));
    ASSERT_GE(op, 0) << "the tag is an op as written";
    const int f16 = static_cast<int>(map.dtypes().indexOf(QStringLiteral("float16")));
    const QString tip = map.cellToolTip(op, f16);
    EXPECT_TRUE(tip.contains(QStringLiteral("&lt;h1&gt;APPROVED&lt;/h1&gt;"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("<h1>"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("<img"))) << tip.toStdString();
}

TEST(CommitViews, ScheduledAndReleaseViewsKeepTheirRowsAndTheJobsThatRanThere)
{
    MatrixSnapshot snap = snapshot({commit("aaaa111111", 400, 1001, "main"),
                                    commit("bbbb222222", 300, 1002, "release/2.10"),
                                    commit("cccc333333", 200, 0, "main", EventType::Nightly),
                                    commit("dddd444444", 100, 0, "main", EventType::Periodic)},
                                   {column("org/a", "test", 1), column("org/a", "nightly-full", 2),
                                    column("org/b", "lint", 3)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 1));
    setCell(snap, 1, 0, cell(Conclusion::Failure, 2));
    setCell(snap, 2, 1, cell(Conclusion::Success, 3));
    setCell(snap, 3, 1, cell(Conclusion::Success, 4));
    setCell(snap, 0, 2, cell(Conclusion::Success, 5));
    MatrixModel model;
    model.merge(snap);
    MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    CheckedModel checked(&proxy);
    EXPECT_EQ(rowsInView(model.commits(), CommitView::Scheduled), 2);
    EXPECT_EQ(rowsInView(model.commits(), CommitView::Release), 1);

    proxy.setCommitView(CommitView::Scheduled);
    ASSERT_EQ(proxy.rowCount(), 2);
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::ShortShaRole).toString(),
              QStringLiteral("cccc333"));
    ASSERT_EQ(proxy.columnCount(), 1);
    EXPECT_EQ(proxy.headerData(0, Qt::Horizontal, MatrixModel::JobRole).toString(),
              QStringLiteral("nightly-full"));

    proxy.setCommitView(CommitView::Release);
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::BranchRole).toString(),
              QStringLiteral("release/2.10"));
    EXPECT_EQ(proxy.columnCount(), 1);

    proxy.resetFilters();
    EXPECT_EQ(proxy.rowCount(), 4);
    EXPECT_EQ(proxy.columnCount(), 3);
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
    EXPECT_TRUE(isReleaseBranch(QStringLiteral("refs/heads/release/2.9")));
    EXPECT_FALSE(isReleaseBranch(QStringLiteral("main")));
    EXPECT_FALSE(isReleaseBranch(QStringLiteral("prerelease/1")));
}

TEST(VerdictMarks, GreenCellsSayWhatTheirVerdictWas)
{
    MatrixSnapshot snap = snapshot({commit("aaaa111111", 400, 1001, "main")},
                                   {column("org/a", "a", 1), column("org/a", "b", 2),
                                    column("org/a", "c", 3), column("org/a", "d", 4)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 1));
    setCell(snap, 0, 1, cell(Conclusion::Success, 2));
    setCell(snap, 0, 2, cell(Conclusion::Success, 3));
    setCell(snap, 0, 3, cell(Conclusion::Success, 4));
    snap.cells[0].flags |= MatrixCell::GreenVerified;
    snap.cells[1].flags |= MatrixCell::GreenUnverified;
    snap.cells[2].flags |= MatrixCell::GreenDisputed | MatrixCell::GreenUnverified;
    MatrixModel model;
    model.merge(snap);
    auto mark = [&](int c) {
        return static_cast<MatrixModel::VerdictMark>(
            model.index(0, c).data(MatrixModel::VerdictRole).toInt());
    };
    EXPECT_EQ(mark(0), MatrixModel::VerdictMark::Verified);
    EXPECT_EQ(mark(1), MatrixModel::VerdictMark::Unverified);
    EXPECT_EQ(mark(2), MatrixModel::VerdictMark::Disputed); // the stronger word wins
    EXPECT_EQ(mark(3), MatrixModel::VerdictMark::None);     // never examined
    EXPECT_THAT(model.index(0, 1).data(Qt::ToolTipRole).toString().toStdString(),
                ::testing::HasSubstr("not verified"));
    EXPECT_THAT(model.index(0, 2).data(Qt::ToolTipRole).toString().toStdString(),
                ::testing::HasSubstr("disputed"));
}

TEST(CoverageSettings, EachConfigIsCheckedAsItIsChosenAndTheMapRoundTrips)
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("ops.yaml"));
    const QString broken = dir.filePath(QStringLiteral("broken.yaml"));
    std::ofstream(good.toStdString()) << kConfigText;
    std::ofstream(broken.toStdString()) << "test_suite_config:\n  files: [\n";
    std::vector<Backend> allowlist = {
        {"org/a", Level::L2, {}}, {"org/b", Level::L3, {}}, {"org/l1", Level::L1, {}}};
    CoverageSettingsPage page({{QStringLiteral("org/b"), broken}}, 15, allowlist);
    QTableWidget* table = page.table();
    ASSERT_EQ(table->rowCount(), 2); // L1 never reports
    page.setConfig(QStringLiteral("org/a"), good);
    EXPECT_THAT(table->item(0, 2)->text().toStdString(),
                ::testing::StartsWith("parses: 1 file, 4 entries, 6 names"));
    EXPECT_THAT(table->item(1, 2)->text().toStdString(),
                ::testing::Not(::testing::HasSubstr("parses")));
    EXPECT_FALSE(table->item(1, 2)->text().isEmpty());
    page.setConfig(QStringLiteral("org/new"), good); // not in the allowlist yet
    EXPECT_EQ(table->rowCount(), 3);
    const QMap<QString, QString> configs = page.outcomeConfigs();
    EXPECT_EQ(configs.size(), 3);
    EXPECT_EQ(configs.value(QStringLiteral("org/a")), good);
    EXPECT_EQ(page.shrinkPercent(), 15);
    page.resize(640, 360);
    keepPicture(page, QStringLiteral("settings-coverage.png"));

    AppSettings settings;
    settings.outcomeConfigs = configs;
    settings.shrinkPercent = 15;
    QSettings store(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    saveSettings(store, settings);
    store.sync();
    EXPECT_EQ(loadSettings(store), settings);
    const verdict::VerdictSources sources = verdictSources(settings);
    EXPECT_EQ(sources.configByRepo.at("org/a"), good.toStdString());
    EXPECT_DOUBLE_EQ(sources.shrinkThreshold, 0.15);
}
