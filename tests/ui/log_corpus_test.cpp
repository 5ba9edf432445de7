// The real fragments of failing pytorch jobs in shared/corpus/logs, opened in
// the viewer: groups fold, colours show where the file has SGR, pytest
// fragments have landmarks, and each fragment's MATCH line (the line that
// explains the failure) is among the landmarks where the engine finds it,
// else among the search results for its marked text.
#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_structure.h"
#include "relayhud/ui/logs/landmarks_model.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_search_bar.h"
#include "relayhud/ui/logs/log_structure_watcher.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"

#include "log_fixtures.h"
#include "test_support.h"

#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::IsEmpty;

namespace {

std::vector<std::string> corpusFiles()
{
    std::vector<std::string> names;
    if (!std::filesystem::exists(test::corpusDir()))
        return names;
    for (const auto& entry : std::filesystem::directory_iterator(test::corpusDir()))
        if (entry.path().extension() == ".txt")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The text between the first ‹ and › of the MATCH line, as marked.
std::string markedSpan(const std::string& fileName)
{
    std::ifstream in(test::corpusDir() + "/" + fileName, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("#=MATCH=# ", 0) != 0)
            continue;
        const auto open = line.find("\u2039");
        const auto close = line.find("\u203a", open);
        if (open == std::string::npos || close == std::string::npos)
            return {};
        const std::size_t from = open + std::string("\u2039").size();
        // Search sees text without escape sequences, as the view shows it.
        std::string plain;
        stripEscapes(line.substr(from, close - from), plain);
        return plain;
    }
    return {};
}

bool hasLandmarkAt(const LandmarksModel& model, std::uint64_t line)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.landmarkAt(r).line.value == line)
            return true;
    return false;
}

bool searchFinds(LogViewer& viewer, const std::string& text, std::uint64_t line)
{
    QSignalSpy finished(&viewer, &LogViewer::searchFinished);
    QLineEdit* edit = viewer.searchBar()->textEdit();
    edit->setText(QString::fromStdString(text));
    if (!finished.wait(10000))
        return false;
    const auto& matches = viewer.view()->matches();
    return std::find(matches.begin(), matches.end(), LineNumber{line}) != matches.end();
}

} // namespace

class CorpusFragment : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusFragment, OpensWithGroupsColoursAndItsMatchLineFound)
{
    const std::string name = GetParam();
    const test::CorpusLog corpus = test::corpusLog(name);
    ASSERT_TRUE(corpus.matchLine) << "every fragment marks its line";
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, QString::fromStdString(name), corpus.text);
    LogViewer viewer;
    test::CheckedModel checked(viewer.landmarksModel());
    viewer.resize(1000, 500);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, path));
    EXPECT_THAT(checked.warnings(), IsEmpty());
    LogView* view = viewer.view();
    const auto& file = viewer.document()->file();
    ASSERT_EQ(view->rowCount(), file->lineCount());

    if (corpus.text.find("##[group]") != std::string::npos) {
        const auto& groups = viewer.structureWatcher()->groups();
        ASSERT_FALSE(groups.empty()) << name;
        const LogGroup* folding = nullptr;
        for (const LogGroup& g : groups)
            if (g.end > g.start && !folding)
                folding = &g;
        if (folding) {
            view->setFolded(folding->start, true);
            EXPECT_EQ(view->rowCount(),
                      file->lineCount() - (folding->end.value - folding->start.value))
                << name;
            view->setFolded(folding->start, false);
        }
    }

    if (corpus.text.find("\x1b[") != std::string::npos) {
        // Somewhere in the file a line has colour: paint every screen and look.
        bool coloured = false;
        for (std::uint64_t top = 0; top < file->lineCount() && !coloured;
             top += static_cast<std::uint64_t>(view->pageRows())) {
            view->goToLine(LineNumber{top}, false);
            view->verticalScrollBar()->setValue(static_cast<int>(top));
            view->viewport()->repaint();
            for (std::uint64_t l = top; l < top + static_cast<std::uint64_t>(view->pageRows());
                 ++l) {
                const DisplayLine* d = view->lineCache().find(LineNumber{l});
                coloured = coloured || (d && !d->styles.empty());
            }
        }
        EXPECT_TRUE(coloured) << name;
    }

    if (name.rfind("pytest", 0) == 0) {
        EXPECT_GT(viewer.landmarksModel()->rowCount(), 0) << name;
    }

    // The engine's own verdict on the MATCH line decides where to look.
    LogStructure engine(file);
    engine.start();
    engine.wait();
    const auto landmarks = engine.landmarks();
    const bool engineFinds =
        std::any_of(landmarks.begin(), landmarks.end(),
                    [&](const Landmark& l) { return l.line.value == *corpus.matchLine; });
    RecordProperty("match_found_by", engineFinds ? "landmark" : "search");
    if (engineFinds) {
        EXPECT_TRUE(hasLandmarkAt(*viewer.landmarksModel(), *corpus.matchLine)) << name;
    } else {
        const std::string span = markedSpan(name);
        ASSERT_FALSE(span.empty()) << name;
        EXPECT_TRUE(searchFinds(viewer, span, *corpus.matchLine)) << name << ": " << span;
    }
}

INSTANTIATE_TEST_SUITE_P(Logs, CorpusFragment, ::testing::ValuesIn(corpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             return param.param.substr(0, param.param.size() - 4);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusFragment);
