#include "relayhud/ui/tests/tests_filter_bar.h"

#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/tests/tests_index.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

void fillCombo(QComboBox& combo, const QString& anyText, const std::vector<TestsChoice>& choices)
{
    const QSignalBlocker blocker(&combo);
    const QString chosen = combo.currentData().toString();
    combo.clear();
    combo.addItem(anyText, QString());
    for (const TestsChoice& choice : choices)
        combo.addItem(choice.value % u"  (" % formatCount(choice.count) % u')', choice.value);
    combo.setCurrentIndex(std::max(0, combo.findData(chosen)));
    combo.setVisible(!choices.empty());
}

void selectData(QComboBox& combo, const QString& value)
{
    const QSignalBlocker blocker(&combo);
    combo.setCurrentIndex(std::max(0, combo.findData(value)));
}

QComboBox* choiceCombo(QWidget* parent, const QString& anyText, const QString& toolTip)
{
    auto* combo = new QComboBox(parent);
    combo->addItem(anyText, QString());
    combo->setToolTip(toolTip);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(6); // the bar fits a laptop's dock column
    return combo;
}

} // namespace

TestsFilterBar::TestsFilterBar(QWidget* parent)
    : QWidget(parent), m_text(new QLineEdit(this)),
      m_file(choiceCombo(this, tr("All files"), tr("Show the tests of one file"))),
      m_op(choiceCombo(this, tr("All ops"), tr("Show the tests marked with one op (op__ marks)"))),
      m_dtype(choiceCombo(this, tr("All dtypes"),
                          tr("Show the tests marked with one dtype (dtype__ marks)"))),
      m_grouping(new QComboBox(this)), m_shown(new QLabel(this))
{
    buildLayout();
    connect(m_text, &QLineEdit::textChanged, this, &TestsFilterBar::filterChanged);
    for (QComboBox* combo : {m_file, m_op, m_dtype})
        connect(combo, &QComboBox::currentIndexChanged, this, &TestsFilterBar::filterChanged);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &TestsFilterBar::groupingChanged);
}

void TestsFilterBar::buildLayout()
{
    m_text->setPlaceholderText(tr("Filter tests: words in the name or message"));
    m_text->setToolTip(tr("Every word must occur in the test's identity or its message, in any "
                          "case"));
    m_text->setClearButtonEnabled(true);
    m_text->setMinimumWidth(140);
    m_file->setMinimumContentsLength(8);
    m_grouping->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_grouping->setMinimumContentsLength(9);
    m_grouping->addItem(tr("No grouping"), static_cast<int>(TestsModel::Grouping::None));
    m_grouping->addItem(tr("Group by file"), static_cast<int>(TestsModel::Grouping::File));
    m_grouping->addItem(tr("Group by class"), static_cast<int>(TestsModel::Grouping::Class));
    m_shown->setForegroundRole(QPalette::PlaceholderText);
    m_shown->setTextFormat(Qt::PlainText);
    // Two rows: the bar fits the dock column beside the matrix.
    auto* text = new QHBoxLayout;
    text->setSpacing(6);
    text->addWidget(m_text, 1);
    text->addWidget(m_shown);
    auto* choices = new QHBoxLayout;
    choices->setSpacing(6);
    choices->addWidget(m_file, 1);
    choices->addWidget(m_op, 1);
    choices->addWidget(m_dtype, 1);
    choices->addWidget(m_grouping);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(3);
    layout->addLayout(text);
    layout->addLayout(choices);
}

void TestsFilterBar::setChoices(const TestsIndex& index)
{
    fillCombo(*m_file, tr("All files"), index.fileChoices());
    fillCombo(*m_op, tr("All ops"), index.opChoices());
    fillCombo(*m_dtype, tr("All dtypes"), index.dtypeChoices());
}

void TestsFilterBar::setFilter(const TestsFilter& filter)
{
    {
        const QSignalBlocker blocker(m_text);
        if (m_text->text() != filter.text)
            m_text->setText(filter.text);
    }
    selectData(*m_file, filter.file);
    selectData(*m_op, filter.op);
    selectData(*m_dtype, filter.dtype);
}

TestsFilter TestsFilterBar::filter() const
{
    TestsFilter filter;
    filter.text = m_text->text();
    filter.file = m_file->currentData().toString();
    filter.op = m_op->currentData().toString();
    filter.dtype = m_dtype->currentData().toString();
    return filter;
}

void TestsFilterBar::setGrouping(TestsModel::Grouping grouping)
{
    const QSignalBlocker blocker(m_grouping);
    m_grouping->setCurrentIndex(std::max(0, m_grouping->findData(static_cast<int>(grouping))));
}

TestsModel::Grouping TestsFilterBar::grouping() const
{
    return static_cast<TestsModel::Grouping>(m_grouping->currentData().toInt());
}

void TestsFilterBar::setShownCount(std::size_t shown, std::size_t total)
{
    m_shown->setText(shown == total
                         ? tr("%1 tests").arg(formatCount(static_cast<std::int64_t>(total)))
                         : tr("%1 of %2 tests")
                               .arg(formatCount(static_cast<std::int64_t>(shown)),
                                    formatCount(static_cast<std::int64_t>(total))));
}

QString TestsFilterBar::shownText() const { return m_shown->text(); }

} // namespace relayhud::ui
