// TestsModel's cells: what each column shows for a test and for a group.
// Every CI string stays plain text; tooltips go through plainToolTip().
#include "relayhud/ui/tests/tests_model.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QFont>

#include <optional>

namespace relayhud::ui {

namespace {

constexpr qsizetype kMessageCellChars = 160; // more than a cell shows; eliding costs per char
constexpr qsizetype kMessageTipChars = 1500;
constexpr int kMessageTipLines = 25;

// The order counts are listed in: what broke, what passed, what did not run.
constexpr std::array<TestOutcome, kTestOutcomeCount> kListOrder{
    TestOutcome::Failed, TestOutcome::Error,   TestOutcome::XPassStrict,
    TestOutcome::Passed, TestOutcome::Skipped, TestOutcome::XFailed};

QString joined(const std::vector<std::string_view>& values)
{
    QString text;
    for (std::string_view value : values)
        text += (text.isEmpty() ? QString() : QStringLiteral(", ")) % toQString(value);
    return text;
}

// The message on one line: its lines joined by " ↵ ", since pytest often
// puts only "AssertionError: " on the first. Capped for the cell.
QString messageLine(const std::string& message)
{
    std::string_view rest =
        std::string_view(message).substr(0, static_cast<std::size_t>(kMessageCellChars) * 4);
    QString text;
    while (!rest.empty() && text.size() <= kMessageCellChars) {
        const std::size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const QString trimmed = toQString(line).trimmed();
        if (!trimmed.isEmpty())
            text += (text.isEmpty() ? QString() : QStringLiteral(" ↵ ")) % trimmed;
    }
    const bool cut = text.size() > kMessageCellChars || message.size() > kMessageCellChars * 4;
    return cut ? text.left(kMessageCellChars) % u'…' : text;
}

QString messageTip(const std::string& message)
{
    QString text = toQString(
        std::string_view(message).substr(0, static_cast<std::size_t>(kMessageTipChars) * 4));
    const QStringList lines = text.split(u'\n');
    bool cut = text.size() > kMessageTipChars
               || message.size() > static_cast<std::size_t>(text.toUtf8().size());
    if (lines.size() > kMessageTipLines) {
        text = lines.mid(0, kMessageTipLines).join(u'\n');
        cut = true;
    }
    return cut ? text.left(kMessageTipChars) % u"\n…" : text;
}

QVariant alignment(int column)
{
    if (column == TestsModel::DurationColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QString badgeText(TestsModel::HistoryBadge badge)
{
    switch (badge) {
    case TestsModel::HistoryBadge::NewFailure:
        return TestsModel::tr("The job's run before (any PR, in time order) passed it; the class "
                              "says whose failure it is");
    case TestsModel::HistoryBadge::FailedBefore:
        return TestsModel::tr("The job's run before (any PR, in time order) failed it too");
    case TestsModel::HistoryBadge::None: break;
    }
    return {};
}

// The tile a group shows: its worst failure; else passed when anything
// passed (a few xfails among thousands of passes are not the headline).
TestOutcome groupOutcome(const std::array<int, kTestOutcomeCount>& counts)
{
    std::optional<TestOutcome> worst;
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i) {
        const auto outcome = static_cast<TestOutcome>(i);
        if (counts[i] > 0 && (!worst || outcomeRank(outcome) < outcomeRank(*worst)))
            worst = outcome;
    }
    if (worst && !isFailingOutcome(*worst)
        && counts[static_cast<std::size_t>(TestOutcome::Passed)] > 0)
        return TestOutcome::Passed;
    return worst.value_or(TestOutcome::Passed);
}

} // namespace

QString triageToolTip(const TestTriage& triage)
{
    QString text;
    if (triage.hasHuman()) {
        const TriageTag& tag = *triage.tag;
        text = TestsModel::tr("%1, tagged by %2 on %3")
                   .arg(classLabel(tag.cls),
                        tag.author.empty() ? TestsModel::tr("someone") : toQString(tag.author),
                        tagTimeText(tag.timeMs));
        if (!tag.note.empty())
            text += u"\n" % toQString(tag.note);
        if (!tag.bugUrl.empty())
            text += u"\n" % toQString(tag.bugUrl);
        text += u"\n\n" % TestsModel::tr("Suggested: %1").arg(classLabel(triage.suggested));
    } else {
        text = TestsModel::tr("Suggested: %1").arg(classLabel(triage.suggested));
        if (triage.isProvisional())
            text += TestsModel::tr(" (provisional: %1)").arg(triage.provisional);
        else if (triage.confidence > 0.0)
            text += TestsModel::tr(" (%1% sure)").arg(qRound(triage.confidence * 100));
    }
    if (!triage.why.isEmpty())
        text += u"\n" % triage.why;
    return text;
}

QString testCountsText(const std::array<int, kTestOutcomeCount>& counts)
{
    QString text;
    for (TestOutcome outcome : kListOrder) {
        const int count = counts[static_cast<std::size_t>(outcome)];
        if (count == 0)
            continue;
        text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) % formatCount(count) % u' '
                % outcomeLabel(outcome);
    }
    return text;
}

QVariant TestsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return alignment(section);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case OutcomeColumn: return tr("The outcome in the run's JUnit reports (artifacts)");
        case OpColumn: return tr("The op__ marks of the test (torch-spyre)");
        case DtypeColumn: return tr("The dtype__ marks of the test (torch-spyre)");
        case HistoryColumn:
            return tr("This job on earlier upstream SHAs, oldest to newest; the outlined square "
                      "is this run");
        case ClassColumn:
            return tr("The failure's class: a filled chip is a person's tag, a dashed one the "
                      "tool's suggestion (hover for why)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    static const std::array<const char*, ColumnCount> names{
        QT_TR_NOOP("Outcome"), QT_TR_NOOP("Test"),    QT_TR_NOOP("File"),
        QT_TR_NOOP("Op"),      QT_TR_NOOP("Dtype"),   QT_TR_NOOP("Duration"),
        QT_TR_NOOP("History"), QT_TR_NOOP("Message"), QT_TR_NOOP("Class")};
    return tr(names[static_cast<std::size_t>(section)]);
}

QVariant TestsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (const Group* group = groupAt(index))
        return groupData(*group, index.column(), role);
    return testData(rowAt(index), index.column(), role);
}

QVariant TestsModel::testData(Row row, int column, int role) const
{
    const StoredTestResult& result = at(row);
    const auto entry = m_histories.find(row);
    const bool hasHistory = entry != m_histories.end();
    switch (role) {
    case Qt::DisplayRole: return testDisplay(row, column);
    case Qt::ToolTipRole: return testToolTip(row, column);
    case Qt::TextAlignmentRole: return alignment(column);
    case OutcomeRole: return static_cast<int>(result.outcome);
    case GroupRole: return false;
    case TestIdRole: return QVariant::fromValue(static_cast<qint64>(result.testId.value));
    case IdentityRole: return toQString(result.identity);
    case HistoryStripRole: return hasHistory ? entry->second.squares : QByteArray();
    case HistoryBadgeRole:
        return static_cast<int>(hasHistory ? entry->second.badge : HistoryBadge::None);
    case ClassRole:
        if (const auto found = m_triage.find(row); found != m_triage.end())
            return static_cast<int>(found->second.effective());
        return {};
    case ClassHumanRole:
        if (const auto found = m_triage.find(row); found != m_triage.end())
            return found->second.hasHuman();
        return false;
    case ClassProvisionalRole:
        if (const auto found = m_triage.find(row); found != m_triage.end())
            return !found->second.hasHuman() && found->second.isProvisional();
        return false;
    default: break;
    }
    return {};
}

QVariant TestsModel::testDisplay(Row row, int column) const
{
    const StoredTestResult& r = at(row);
    switch (column) {
    case OutcomeColumn:
        return r.retried.empty() ? outcomeLabel(r.outcome) : outcomeLabel(r.outcome) % u" ↻";
    case TestColumn:
        return r.className.empty() ? toQString(r.name)
                                   : toQString(r.className) % u"::" % toQString(r.name);
    case FileColumn: return toQString(r.file);
    case OpColumn: return joined(m_index.ops(row));
    case DtypeColumn: return joined(m_index.dtypes(row));
    case DurationColumn: return formatTestDuration(r.durationSeconds);
    case HistoryColumn: return QString(); // painted by the delegate
    case MessageColumn: return messageLine(r.message);
    case ClassColumn:
        if (const auto found = m_triage.find(row); found != m_triage.end())
            return found->second.isProvisional() && !found->second.hasHuman()
                       ? tr("%1 (provisional)").arg(classLabel(found->second.suggested))
                       : classLabel(found->second.effective());
        return QString();
    default: break;
    }
    return {};
}

QVariant TestsModel::testToolTip(Row row, int column) const
{
    const StoredTestResult& r = at(row);
    QString text;
    switch (column) {
    case OutcomeColumn: {
        text = outcomeDescription(r.outcome);
        if (!r.retried.empty())
            text += u"\n" % tr("retried (%1)").arg(toQString(r.retried));
        const auto entry = m_histories.find(row);
        if (entry != m_histories.end() && entry->second.badge != HistoryBadge::None)
            text += u"\n" % badgeText(entry->second.badge);
        break;
    }
    case TestColumn:
        text = toQString(r.identity);
        if (!r.baseName.empty())
            text += u"\n" % tr("base name: %1").arg(toQString(r.baseName));
        break;
    case FileColumn: text = toQString(r.file); break;
    case HistoryColumn:
        if (const auto entry = m_histories.find(row); entry != m_histories.end())
            text = historySummaryText(entry->second.history);
        break;
    case MessageColumn: text = messageTip(r.message); break;
    case ClassColumn:
        if (const auto found = m_triage.find(row); found != m_triage.end())
            text = triageToolTip(found->second);
        break;
    default: break;
    }
    return text.isEmpty() ? QVariant() : QVariant(plainToolTip(text));
}

QVariant TestsModel::groupData(const Group& group, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        if (column == TestColumn)
            return QString(toQString(groupLabel(group.key)) % u" — "
                           % testCountsText(group.counts));
        if (column == DurationColumn)
            return formatTestDuration(group.seconds);
        return {};
    case Qt::ToolTipRole:
        if (column != TestColumn)
            return {};
        return plainToolTip(toQString(groupLabel(group.key)) % u"\n"
                            % testCountsText(group.counts));
    case Qt::FontRole: {
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::TextAlignmentRole: return alignment(column);
    case OutcomeRole: return static_cast<int>(groupOutcome(group.counts));
    case GroupRole: return true;
    case GroupNameRole: return toQString(groupLabel(group.key));
    default: break;
    }
    return {};
}

} // namespace relayhud::ui
