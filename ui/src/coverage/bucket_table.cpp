#include "bucket_table.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>

#include <algorithm>
#include <utility>

namespace relayhud::ui {
namespace {

enum BucketColumn {
    BucketModeColumn,
    BucketListedColumn,
    BucketRanColumn,
    BucketNotRunColumn,
    BucketAgainstColumn,
    BucketColumnCount
};

QString bucketTr(const char* text) { return QCoreApplication::translate("BucketTable", text); }

// What each mode expects of a case (config_coverage.cpp's table, which
// follows torch-spyre's framework: spyre-config-semantics.md).
QString modeExpectation(verdict::Bucket bucket)
{
    switch (bucket) {
    case verdict::Bucket::MandatorySuccess: return bucketTr("must pass (a skip counts as not run)");
    case verdict::Bucket::Xfail: return bucketTr("may fail; a pass (XPASS) is worth promoting");
    case verdict::Bucket::XfailStrict: return bucketTr("must not pass: a pass fails the run");
    case verdict::Bucket::Skip: return bucketTr("deleted before collection: never runs");
    case verdict::Bucket::Unlisted:
        return bucketTr("not named in the config: its file's unlisted_test_mode decides");
    }
    return {};
}

// What "against the mode" counted, for this mode, in a phrase that follows
// a number of cases.
QString againstMode(verdict::Bucket bucket)
{
    switch (bucket) {
    case verdict::Bucket::MandatorySuccess: return bucketTr("mandatory_success cases did not pass");
    case verdict::Bucket::Xfail:
        return bucketTr("xfail cases passed (XPASS): candidates to promote to mandatory_success");
    case verdict::Bucket::XfailStrict:
        return bucketTr("xfail_strict cases passed, which fails the run");
    case verdict::Bucket::Skip: return bucketTr("skipped cases are in the report anyway");
    case verdict::Bucket::Unlisted:
        return bucketTr("unlisted cases did not do what their file's unlisted_test_mode expects "
                        "(most often: passed where it says xfail)");
    }
    return {};
}

QTableWidgetItem* bucketNumberItem(std::int64_t value, const QString& tip, bool shown = true)
{
    auto* item =
        new QTableWidgetItem(shown ? QStringLiteral("%L1").arg(value) : QStringLiteral("–"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(tip);
    return item;
}

void emphasizeBucketCell(QTableWidgetItem* item)
{
    QFont f = item->font();
    f.setBold(true);
    item->setFont(f);
}

} // namespace

void setUpBucketTable(QTableWidget& table)
{
    table.setColumnCount(BucketColumnCount);
    table.setHorizontalHeaderLabels({bucketTr("Mode"), bucketTr("Listed"), bucketTr("Ran"),
                                     bucketTr("Listed, did not run"),
                                     bucketTr("Against the mode")});
    const QStringList tips = {
        bucketTr(
            "The outcome mode the config gives a test, as torch-spyre's framework resolves it; "
            "unlisted: tests the config does not name"),
        bucketTr("Names and patterns the config lists in this mode"),
        bucketTr("Test cases in the report that this mode decided"),
        bucketTr("Listed names and patterns no case ran for: a gap in what the run covered (those "
                 "the job's pytest selection deselects are not counted)"),
        bucketTr("Cases whose outcome is not what the mode expects: hover a number for what it "
                 "counts")};
    for (int c = 0; c < BucketColumnCount; ++c)
        table.horizontalHeaderItem(c)->setToolTip(tips.value(c));
    table.horizontalHeader()->setSectionResizeMode(BucketModeColumn, QHeaderView::Stretch);
    for (int c = BucketListedColumn; c < BucketColumnCount; ++c)
        table.horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
}

void fillBucketTable(QTableWidget& table, const verdict::ConfigCoverage& coverage)
{
    table.setRowCount(0);
    int row = 0;
    for (std::size_t b = 0; b < verdict::kBucketCount; ++b) {
        const auto bucket = static_cast<verdict::Bucket>(b);
        if (bucket == verdict::Bucket::Skip)
            continue; // skipped tests never reach a report
        const verdict::BucketCounts& counts = coverage.bucket(bucket);
        const bool unlisted = bucket == verdict::Bucket::Unlisted;
        const QString name = QString::fromUtf8(verdict::bucketName(bucket));
        table.insertRow(row);
        auto* mode = new QTableWidgetItem(name);
        mode->setToolTip(bucketTr("%1: %2").arg(name, modeExpectation(bucket)));
        table.setItem(row, BucketModeColumn, mode);
        table.setItem(
            row, BucketListedColumn,
            bucketNumberItem(
                counts.declared,
                bucketTr("%L1 names and patterns listed as %2").arg(counts.declared).arg(name),
                !unlisted));
        table.setItem(row, BucketRanColumn,
                      bucketNumberItem(counts.ran,
                                       bucketTr("%L1 cases ran as %2").arg(counts.ran).arg(name)));
        auto* notRun = bucketNumberItem(
            counts.missing,
            bucketTr("%L1 %2 listings had no case that ran").arg(counts.missing).arg(name),
            !unlisted);
        auto* wrong = bucketNumberItem(
            counts.unexpected, bucketTr("%L1 %2").arg(counts.unexpected).arg(againstMode(bucket)));
        if (!unlisted && counts.missing > 0)
            emphasizeBucketCell(notRun);
        if (!unlisted && counts.unexpected > 0)
            emphasizeBucketCell(wrong);
        table.setItem(row, BucketNotRunColumn, notRun);
        table.setItem(row, BucketAgainstColumn, wrong);
        ++row;
    }
    int height = table.horizontalHeader()->height() + 2 * table.frameWidth();
    for (int r = 0; r < table.rowCount(); ++r)
        height += table.rowHeight(r);
    table.setFixedHeight(height);
}

QStringList bucketSentences(const verdict::ConfigCoverage& coverage)
{
    std::vector<std::pair<std::int64_t, QString>> found;
    for (std::size_t b = 0; b < verdict::kBucketCount; ++b) {
        const auto bucket = static_cast<verdict::Bucket>(b);
        const verdict::BucketCounts& counts = coverage.bucket(bucket);
        if (counts.unexpected > 0)
            found.emplace_back(counts.unexpected,
                               bucketTr("%L1 %2.").arg(counts.unexpected).arg(againstMode(bucket)));
        if (bucket != verdict::Bucket::Unlisted && counts.missing > 0)
            found.emplace_back(counts.missing,
                               bucketTr("%L1 %2 listings did not run (listed below).")
                                   .arg(counts.missing)
                                   .arg(QString::fromUtf8(verdict::bucketName(bucket))));
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList out;
    for (auto& [count, sentence] : found)
        out << std::move(sentence);
    return out;
}

} // namespace relayhud::ui
