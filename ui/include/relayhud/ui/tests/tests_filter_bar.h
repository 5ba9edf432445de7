#pragma once
// The row of controls above the tests table: free text, file, op and dtype
// (choices from the data, with counts), grouping, and how many tests show.
#include "relayhud/ui/tests/tests_filter.h"
#include "relayhud/ui/tests/tests_model.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace relayhud::ui {

class TestsIndex;

class TestsFilterBar : public QWidget {
    Q_OBJECT
public:
    explicit TestsFilterBar(QWidget* parent = nullptr);

    // Refills the combos from the data; a combo with no choices hides.
    void setChoices(const TestsIndex& index);
    // Shows `filter` without emitting (the outcomes live in the counts bar).
    void setFilter(const TestsFilter& filter);
    // The text, file, op and dtype as the controls show them; outcomes 0.
    TestsFilter filter() const;
    void setGrouping(TestsModel::Grouping grouping);
    TestsModel::Grouping grouping() const;
    void setShownCount(std::size_t shown, std::size_t total);

    QLineEdit* textEdit() const { return m_text; }
    QComboBox* fileCombo() const { return m_file; }
    QComboBox* opCombo() const { return m_op; }
    QComboBox* dtypeCombo() const { return m_dtype; }
    QComboBox* groupingCombo() const { return m_grouping; }
    QString shownText() const;

signals:
    void filterChanged();
    void groupingChanged();

private:
    void buildLayout();

    QLineEdit* m_text;
    QComboBox* m_file;
    QComboBox* m_op;
    QComboBox* m_dtype;
    QComboBox* m_grouping;
    QLabel* m_shown;
};

} // namespace relayhud::ui
