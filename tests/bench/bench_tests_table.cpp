// Tests table speed: 100,000 test results in a TestsPanel; a filter
// keystroke (the text set as typing sets it, then a synchronous repaint of
// the table's viewport). References in the same run: the same keystrokes
// through a plain QTableView over a QStringListModel of the same visible
// rows, and a bare std::string search over the same rows.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/ui/tests/tests_filter_bar.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"

#include <QApplication>
#include <QEvent>
#include <QLineEdit>
#include <QStringListModel>
#include <QTableView>
#include <QTreeView>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace relayhud::bench {
namespace {

constexpr int kRows = 100'000;

const std::array<const char*, 10> kFiles{"test/test_ops.py",          "test/test_binary_ufuncs.py",
                                         "test/test_view_ops.py",     "test/test_nn.py",
                                         "test/test_torch.py",        "test/test_reductions.py",
                                         "test/test_unary_ufuncs.py", "test/test_linalg.py",
                                         "test/test_indexing.py",     "test/test_shape_ops.py"};
const std::array<const char*, 10> kClasses{
    "TestCommonPRIVATEUSE1",       "TestBinaryUfuncsPRIVATEUSE1",    "TestViewOpsPRIVATEUSE1",
    "TestNNDeviceTypePRIVATEUSE1", "TestTorchDeviceTypePRIVATEUSE1", "TestReductionsPRIVATEUSE1",
    "TestUnaryUfuncsPRIVATEUSE1",  "TestLinalgPRIVATEUSE1",          "TestIndexingPRIVATEUSE1",
    "TestShapeOpsPRIVATEUSE1"};
const std::array<const char*, 12> kMethods{"test_compare_cpu",
                                           "test_out",
                                           "test_variant_consistency_eager",
                                           "test_dtypes",
                                           "test_noncontiguous_samples",
                                           "test_python_ref",
                                           "test_reference_numerics_normal",
                                           "test_contig_vs_every_other",
                                           "test_non_standard_bool_values",
                                           "test_errors",
                                           "test_multiple_devices",
                                           "test_conj_view"};
const std::array<const char*, 24> kOps{
    "add",  "sub",     "mul",       "div",   "matmul", "addmm", "bmm",       "relu",
    "gelu", "softmax", "sum",       "mean",  "amax",   "where", "index_put", "cat",
    "view", "reshape", "transpose", "clamp", "exp",    "log",   "sqrt",      "bitwise_xor"};
const std::array<const char*, 8> kDtypes{"float16", "float32", "bfloat16", "int8",
                                         "int32",   "int64",   "bool",     "complex64"};

StoredTestResult syntheticResult(int i, std::mt19937& rng)
{
    StoredTestResult r;
    r.testId = i + 1;
    const std::size_t f = rng() % kFiles.size();
    const char* op = kOps[rng() % kOps.size()];
    const char* dtype = kDtypes[rng() % kDtypes.size()];
    r.file = kFiles[f];
    r.className = kClasses[f];
    r.name = std::string(kMethods[rng() % kMethods.size()]) + "_" + op + "_spyre_" + dtype
             + (i % 7 == 0 ? "_" + std::to_string(i) : "");
    r.identity = r.file + "::" + r.className + "::" + r.name;
    r.baseName = r.className.substr(0, r.className.size() - 11) + "::" + kMethods[0];
    r.marks = std::string("op__") + op + ",dtype__" + dtype;
    r.durationSeconds = static_cast<double>(rng() % 5000) / 1000.0;
    const auto roll = rng() % 1000;
    r.outcome = roll < 20    ? TestOutcome::Failed
                : roll < 30  ? TestOutcome::Error
                : roll < 33  ? TestOutcome::XPassStrict
                : roll < 110 ? TestOutcome::Skipped
                : roll < 160 ? TestOutcome::XFailed
                             : TestOutcome::Passed;
    if (r.outcome == TestOutcome::Failed)
        r.message = "AssertionError: Tensor-likes are not close!\n\nMismatched elements: 3 / 64 "
                    "(4.7%)\nGreatest absolute difference: 0.0078125 at index (2, 5)";
    else if (r.outcome == TestOutcome::Error || r.outcome == TestOutcome::XFailed)
        r.message = std::string("NotImplementedError: Could not run 'aten::") + op
                    + "' with arguments from the 'PrivateUse1' backend.";
    else if (r.outcome == TestOutcome::Skipped)
        r.message = std::string("Skipped: dtype ") + dtype + " is not supported on spyre";
    else if (r.outcome == TestOutcome::XPassStrict)
        r.message = "XPASS strict: test passed but xfail strict=True";
    return r;
}

std::shared_ptr<ui::TestsPanelData> syntheticRun()
{
    auto data = std::make_shared<ui::TestsPanelData>();
    data->loadId = 1;
    data->jobTitle = QStringLiteral("torch-spyre / CI / test (default, 1, 1)");
    std::mt19937 rng(1234);
    data->results.reserve(kRows);
    for (int i = 0; i < kRows; ++i)
        data->results.push_back(syntheticResult(i, rng));
    return data;
}

// What a user types, letter by letter: the first letters match nearly every
// row (the worst case), later ones a few, the last phrase none.
std::vector<QString> keystrokes()
{
    std::vector<QString> texts;
    for (const QString& phrase : {QStringLiteral("binary float16"),
                                  QStringLiteral("notimplemented mul"), QStringLiteral("zzzz")})
        for (qsizetype n = 1; n <= phrase.size(); ++n)
            texts.push_back(phrase.left(n));
    return texts;
}

// Counts the paint events a widget gets, to prove that repaint() painted.
class PaintCounter : public QObject {
public:
    int paints = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

// The rows a bare substring search keeps: every word in identity or message.
std::vector<int> bareSearch(const std::vector<std::string>& haystacks, const QString& text)
{
    const QStringList words = text.toLower().split(u' ', Qt::SkipEmptyParts);
    std::vector<std::string> needles;
    for (const QString& word : words)
        needles.push_back(word.toStdString());
    std::vector<int> rows;
    for (std::size_t i = 0; i < haystacks.size(); ++i)
        if (std::all_of(needles.begin(), needles.end(), [&](const std::string& n) {
                return haystacks[i].find(n) != std::string::npos;
            }))
            rows.push_back(static_cast<int>(i));
    return rows;
}

std::vector<std::string> lowerHaystacks(const std::vector<StoredTestResult>& results)
{
    std::vector<std::string> haystacks;
    haystacks.reserve(results.size());
    for (const StoredTestResult& r : results) {
        std::string text = r.identity + "\n" + r.message;
        std::transform(text.begin(), text.end(), text.begin(),
                       [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
        haystacks.push_back(std::move(text));
    }
    return haystacks;
}

} // namespace

void benchTestsTable(Report& report)
{
    const auto data = syntheticRun();
    ui::TestsPanel panel;
    panel.resize(1600, 1000);
    panel.show();
    QApplication::processEvents(); // exposed, so that repaint() paints
    const auto loadStart = Clock::now();
    panel.setData(std::shared_ptr<const ui::TestsPanelData>(data));
    panel.view()->viewport()->repaint();
    std::printf("  %d results shown in the panel (model, index, first paint) in %.0f ms\n", kRows,
                msSince(loadStart));

    PaintCounter counter;
    panel.view()->viewport()->installEventFilter(&counter);
    QLineEdit* edit = panel.filterBar()->textEdit();
    std::vector<double> ours;
    std::vector<double> filterOnly;
    for (const QString& text : keystrokes()) {
        const auto start = Clock::now();
        edit->setText(text);
        const double filtered = msSince(start);
        panel.view()->viewport()->repaint();
        ours.push_back(msSince(start));
        filterOnly.push_back(filtered);
    }
    std::printf("  %zu keystrokes, %d paints; filter alone (model + layout change) median %.2f "
                "ms, worst keystroke %.2f ms\n",
                ours.size(), counter.paints, median(filterOnly),
                *std::max_element(ours.begin(), ours.end()));

    const std::vector<std::string> haystacks = lowerHaystacks(data->results);
    QStringListModel plainModel;
    QTableView plain;
    plain.setModel(&plainModel);
    plain.resize(1600, 1000);
    plain.show();
    QApplication::processEvents();
    std::vector<double> reference;
    std::vector<double> bare;
    for (const QString& text : keystrokes()) {
        const auto start = Clock::now();
        const std::vector<int> rows = bareSearch(haystacks, text);
        bare.push_back(msSince(start));
        QStringList names;
        names.reserve(static_cast<qsizetype>(rows.size()));
        for (int row : rows)
            names.append(
                QString::fromStdString(data->results[static_cast<std::size_t>(row)].identity));
        plainModel.setStringList(names);
        plain.viewport()->repaint();
        reference.push_back(msSince(start));
    }
    std::printf("  bare std::string search over the same rows: median %.2f ms\n", median(bare));
    report.add({"tests table: filter keystroke -> repaint, 100k", median(ours), "ms", 50,
                "QStringListModel+QTableView", median(reference)});
}

} // namespace relayhud::bench
