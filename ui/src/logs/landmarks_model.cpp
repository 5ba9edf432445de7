#include "relayhud/ui/logs/landmarks_model.h"

#include "relayhud/ui/common/format.h"

#include <QLocale>

#include <algorithm>

namespace relayhud::ui {

QString landmarkKindLabel(LandmarkKind kind)
{
    switch (kind) {
    case LandmarkKind::TestFailed: return QStringLiteral("FAILED");
    case LandmarkKind::TestSection: return QStringLiteral("TEST");
    case LandmarkKind::Exception: return QStringLiteral("EXCEPTION");
    case LandmarkKind::ErrorMarker: return QStringLiteral("ERROR");
    case LandmarkKind::Signal: return QStringLiteral("SIGNAL");
    case LandmarkKind::Timeout: return QStringLiteral("TIMEOUT");
    case LandmarkKind::Summary: return QStringLiteral("SUMMARY");
    case LandmarkKind::BuildError: return QStringLiteral("BUILD");
    case LandmarkKind::LintError: return QStringLiteral("LINT");
    }
    return QStringLiteral("?");
}

QColor landmarkKindColor(LandmarkKind kind, bool dark)
{
    switch (kind) {
    case LandmarkKind::Signal: return dark ? QColor(0xd2, 0xa8, 0xff) : QColor(0x82, 0x50, 0xdf);
    case LandmarkKind::Timeout:
    case LandmarkKind::LintError: return dark ? QColor(0xe3, 0xb3, 0x41) : QColor(0x9a, 0x67, 0x00);
    case LandmarkKind::Summary: return dark ? QColor(0x8b, 0x94, 0x9e) : QColor(0x57, 0x60, 0x6a);
    case LandmarkKind::TestSection:
        return dark ? QColor(0x79, 0xc0, 0xff) : QColor(0x09, 0x69, 0xda);
    default: return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xcf, 0x22, 0x2e);
    }
}

LandmarksModel::LandmarksModel(QObject* parent) : QAbstractListModel(parent) {}

void LandmarksModel::append(std::span<const Landmark> landmarks)
{
    if (landmarks.empty())
        return;
    const int first = static_cast<int>(m_landmarks.size());
    beginInsertRows({}, first, first + static_cast<int>(landmarks.size()) - 1);
    m_landmarks.insert(m_landmarks.end(), landmarks.begin(), landmarks.end());
    endInsertRows();
}

void LandmarksModel::clear()
{
    if (m_landmarks.empty())
        return;
    beginRemoveRows({}, 0, static_cast<int>(m_landmarks.size()) - 1);
    m_landmarks.clear();
    endRemoveRows();
}

const Landmark& LandmarksModel::landmarkAt(int row) const
{
    return m_landmarks.at(static_cast<std::size_t>(row));
}

int LandmarksModel::rowAtOrBefore(LineNumber line) const
{
    const auto it = std::upper_bound(m_landmarks.begin(), m_landmarks.end(), line,
                                     [](LineNumber l, const Landmark& m) { return l < m.line; });
    return static_cast<int>(it - m_landmarks.begin()) - 1;
}

int LandmarksModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_landmarks.size());
}

QVariant LandmarksModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Landmark& m = m_landmarks[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return toQString(m.title);
    case Qt::ToolTipRole:
        return plainToolTip(tr("Line %1 · %2\n%3")
                                .arg(QLocale().toString(static_cast<qulonglong>(m.line.shown())),
                                     toQString(toString(m.kind)), toQString(m.title)));
    case LineRole: return QVariant::fromValue<qulonglong>(m.line.value);
    case KindRole: return static_cast<int>(m.kind);
    case KindLabelRole: return landmarkKindLabel(m.kind);
    case KindTextRole: return toQString(toString(m.kind));
    default: return {};
    }
}

QHash<int, QByteArray> LandmarksModel::roleNames() const
{
    auto names = QAbstractListModel::roleNames();
    names[LineRole] = "line";
    names[KindRole] = "kind";
    names[KindLabelRole] = "kindLabel";
    names[KindTextRole] = "kindText";
    return names;
}

} // namespace relayhud::ui
