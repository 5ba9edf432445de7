// The coverage panel's "declared against ran" table: one row per outcome
// mode, its numbers in words a newcomer can read (what each mode expects,
// what went against it), and the sentences under it.
#pragma once

#include "relayhud/verdict/verdict.h"

#include <QStringList>

class QTableWidget;

namespace relayhud::ui {

// Columns, headers and their tooltips.
void setUpBucketTable(QTableWidget& table);
// One row per mode a report can hold (skip never reaches one), and the
// table's height fitted to its rows.
void fillBucketTable(QTableWidget& table, const verdict::ConfigCoverage& coverage);
// What the numbers mean, one sentence per number worth acting on, largest
// first ("208 xfail cases passed (XPASS): ...").
QStringList bucketSentences(const verdict::ConfigCoverage& coverage);

} // namespace relayhud::ui
