// Tools > Upgrade Review (issue 39): the window runs core's review of a
// checkout built here (two tagged commits of a PyTorch-shaped test file and a
// config over it), off the GUI thread, and lists its changes, stale entries
// and outcomes; the kind and word filters narrow the list; a revision the
// checkout lacks says so. Pictures in light and dark with RELAYHUD_UI_SHOTS.
#include "relayhud/ui/upgrade/upgrade_review_window.h"

#include "test_support.h"

#include <QDir>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

void write(const QString& path, const char* text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

class UpgradeReviewWindowTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString repo = m_dir.filePath(QStringLiteral("pytorch"));
        ASSERT_TRUE(QDir().mkpath(repo + QStringLiteral("/test")));
        const std::string git =
            "git -C '" + repo.toStdString() + "' -c user.name=t -c user.email=t@example.com ";
        write(repo + QStringLiteral("/test/test_nn.py"), "class TestNN(NNTestCase):\n"
                                                         "    @dtypes(torch.float)\n"
                                                         "    def test_conv(self, device, dtype):\n"
                                                         "        return conv(device, dtype)\n\n"
                                                         "    def test_old_name(self):\n"
                                                         "        return linear()\n\n"
                                                         "    def test_dropped(self):\n"
                                                         "        pass\n");
        ASSERT_EQ(std::system((git + "init -q && " + git + "add -A && " + git + "commit -qm one && "
                               + git + "tag v2.13.0")
                                  .c_str()),
                  0);
        write(repo + QStringLiteral("/test/test_nn.py"), "class TestNN(NNTestCase):\n"
                                                         "    @dtypes(torch.float, torch.half)\n"
                                                         "    def test_conv(self, device, dtype):\n"
                                                         "        return conv(device, dtype)\n\n"
                                                         "    def test_new_name(self):\n"
                                                         "        return linear()\n\n"
                                                         "    def test_added(self, device):\n"
                                                         "        return device\n");
        ASSERT_EQ(std::system((git + "commit -qam two && " + git + "tag v2.14.0").c_str()), 0);
        m_config = m_dir.filePath(QStringLiteral("spyre.yaml"));
        write(m_config, "test_suite_config:\n"
                        "  files:\n"
                        "    - path: ${TORCH_ROOT}/test/test_nn.py\n"
                        "      unlisted_test_mode: xfail\n"
                        "      tests:\n"
                        "        - names:\n"
                        "            - TestNN::test_conv\n"
                        "            - TestNN::test_old_name\n"
                        "            - TestNN::test_dropped\n"
                        "          mode: mandatory_success\n");
        m_repo = repo;
    }

    bool review(UpgradeReviewWindow& w, const QString& to)
    {
        w.setInputs(m_repo, QStringLiteral("v2.13.0"), to, {m_config});
        QSignalSpy done(&w, &UpgradeReviewWindow::reviewed);
        w.startReview();
        EXPECT_TRUE(w.isReviewing());
        EXPECT_TRUE(done.wait(20000));
        return !done.isEmpty() && done.front().front().toBool();
    }

    QStringList column(const QAbstractItemModel& m, int c) const
    {
        QStringList out;
        for (int r = 0; r < m.rowCount(); ++r)
            out << m.index(r, c).data().toString();
        return out;
    }

    QTemporaryDir m_dir;
    QString m_repo;
    QString m_config;
};

} // namespace

TEST_F(UpgradeReviewWindowTest, ListsTheChangesStaleEntriesAndOutcomes)
{
    UpgradeReviewWindow w;
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(review(w, QStringLiteral("v2.14.0")));
    EXPECT_TRUE(w.summaryText().contains(
        QStringLiteral("4 changed methods in 1 file (1 added, 1 removed, 1 renamed, 1 changed, 0 "
                       "moved); 1 now falls to the default; 2 stale entries")))
        << w.summaryText().toStdString();
    const auto& m = w.model();
    EXPECT_EQ(column(m, UpgradeReviewModel::KindColumn),
              (QStringList{u"added"_qs, u"changed"_qs, u"removed"_qs, u"renamed"_qs, u"stale"_qs,
                           u"stale"_qs}));
    EXPECT_EQ(column(m, UpgradeReviewModel::MethodColumn),
              (QStringList{u"test_added"_qs, u"test_conv"_qs, u"test_dropped"_qs,
                           u"test_old_name"_qs, u"test_old_name"_qs, u"test_dropped"_qs}));
    const QString renamedOutcome = m.index(3, UpgradeReviewModel::OutcomeColumn).data().toString();
    EXPECT_EQ(renamedOutcome, u"now falls to the default: mandatory_success (line 8) → xfail (the "
                              u"file's default)"_qs);
    EXPECT_EQ(m.index(4, UpgradeReviewModel::DetailColumn).data().toString(),
              m_config + u":8 (renamed to test_new_name)"_qs);

    w.setKindFilter(QStringLiteral("stale"));
    EXPECT_EQ(w.shown().rowCount(), 2);
    w.setKindFilter({});
    const QList<QLineEdit*> edits = w.findChildren<QLineEdit*>();
    QLineEdit* words = edits.back(); // the filter box is the last field
    words->setText(QStringLiteral("conv"));
    EXPECT_EQ(w.shown().rowCount(), 1);
    words->clear();
    EXPECT_EQ(w.shown().rowCount(), 6);
    test::keepPictures(w, QStringLiteral("upgrade-review"));
}

TEST_F(UpgradeReviewWindowTest, ARevisionTheCheckoutLacksSaysSo)
{
    UpgradeReviewWindow w;
    EXPECT_FALSE(review(w, QStringLiteral("v9.9.9")));
    EXPECT_TRUE(w.summaryText().startsWith(QStringLiteral("Cannot review: no revision 'v9.9.9'")))
        << w.summaryText().toStdString();
    EXPECT_EQ(w.model().rowCount(), 0);
    EXPECT_FALSE(w.isReviewing());
}
