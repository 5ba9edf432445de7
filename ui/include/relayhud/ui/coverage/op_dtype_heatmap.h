#pragma once
// Op x dtype coverage as a heatmap: one row per op, one column per dtype,
// each cell coloured by the share of its cases that passed (failure colour
// to success colour), empty where no case ran. Ops and dtypes the config
// supports but that never ran are listed too, struck through in the header,
// and ones that ran but are not supported are in italics. Hover a cell for
// its counts.
#include "relayhud/verdict/verdict.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <utility>

namespace relayhud::ui {

class OpDtypeHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit OpDtypeHeatmap(QWidget* parent = nullptr);

    void setCoverage(const verdict::OpDtypeCoverage& coverage);
    bool isEmpty() const { return m_ops.isEmpty(); }
    // Row and column labels, for tests: "(none)" is the column of cases with
    // an op mark and no dtype mark.
    const QStringList& ops() const { return m_ops; }
    const QStringList& dtypes() const { return m_dtypes; }
    // The tooltip a cell shows ("" outside the grid).
    QString cellText(int row, int column) const;
    // The cell's tooltip: cellText as plain text (ops and dtypes come from
    // JUnit tags, which CI writes: never rendered as rich text).
    QString cellToolTip(int row, int column) const;
    QRect cellRect(int row, int column) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void relayout();
    std::pair<int, int> cellAt(const QPoint& pos) const;

    QStringList m_ops;
    QStringList m_dtypes;
    QStringList m_unsupportedOps, m_neverRanOps, m_unsupportedDtypes, m_neverRanDtypes;
    std::map<std::pair<int, int>, verdict::OutcomeTally> m_cells;
    int m_labelWidth = 0;
    int m_cellWidth = 44;
    int m_headerHeight = 0;
};

} // namespace relayhud::ui
