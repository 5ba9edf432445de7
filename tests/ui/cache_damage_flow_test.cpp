// A damaged cache in the window (issue 35): the status bar says the cache is
// damaged and what to do, and the matrix shows nothing rather than what the
// damaged pages would leave of it. With RELAYHUD_UI_SHOTS=DIR it keeps
// pictures, in light and dark.
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

QStringList labelTexts(const QWidget& window)
{
    QStringList texts;
    for (const QLabel* label : window.findChildren<QLabel*>())
        texts << label->text() + u' ' + label->toolTip();
    return texts;
}

TEST(CacheDamageFlow, TheWindowSaysTheCacheIsDamagedAndShowsNoShortMatrix)
{
    QTemporaryDir dir;
    const QString cachePath = dir.filePath(QStringLiteral("cache.sqlite"));
    fillCache(cachePath.toStdString(), dataset());
    // Another program (a failing disk, a bad copy) overwrites a page in the
    // middle of the closed cache.
    constexpr std::int64_t kPage = 4096;
    const auto pages =
        static_cast<std::int64_t>(std::filesystem::file_size(cachePath.toStdString())) / kPage;
    ASSERT_GT(pages, 4);
    {
        std::fstream file(cachePath.toStdString(), std::ios::binary | std::ios::in | std::ios::out);
        file.seekp(pages / 2 * kPage);
        const std::string garbage(static_cast<std::size_t>(kPage), '\x5a');
        file.write(garbage.data(), kPage);
    }

    MainWindow window(offlineSession(cachePath));
    window.resize(1400, 860);
    window.show();
    const auto damaged = [&] { return labelTexts(window).join(u'\n').contains(u"is damaged"); };
    ASSERT_TRUE(QTest::qWaitFor(damaged, kWaitMs)) << labelTexts(window).join(u'|').toStdString();
    EXPECT_TRUE(labelTexts(window).join(u'\n').contains(u"Move it aside and sync again"));
    EXPECT_EQ(window.matrix()->model().rowCount(), 0) << "nothing is read from a damaged cache";
    // Not "offline … showing the cache": nothing is shown from it.
    const QString state = window.syncStatus()->stateText();
    EXPECT_TRUE(state.startsWith(u"cache unreadable — the cache ")) << state.toStdString();
    EXPECT_FALSE(state.contains(u"showing the cache")) << state.toStdString();
    EXPECT_FALSE(state.contains(u"retry in")) << state.toStdString();
    // Where the matrix would be, the reason, not "nothing cached yet".
    const auto explained = [&] {
        return window.matrix()->view()->emptyText().startsWith(u"The cache cannot be read:");
    };
    EXPECT_TRUE(QTest::qWaitFor(explained, kWaitMs));
    const QString empty = window.matrix()->view()->emptyText();
    EXPECT_TRUE(empty.startsWith(u"The cache cannot be read:")) << empty.toStdString();
    EXPECT_TRUE(empty.contains(u"is damaged")) << empty.toStdString();
    keepPictures(window, QStringLiteral("cache_damaged"));
}

} // namespace
