#pragma once
// The failure landmarks of a log as a list: one row per landmark, in file
// order, growing while the structure scan runs (rows are inserted, never
// reset, so the list keeps its selection and scroll position).
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_structure.h"
#endif

#include <QAbstractListModel>
#include <QColor>

#include <span>
#include <vector>

namespace relayhud::ui {

// A short upper-case label ("FAILED", "EXCEPTION") and a colour per kind.
QString landmarkKindLabel(LandmarkKind kind);
QColor landmarkKindColor(LandmarkKind kind, bool dark);

class LandmarksModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        LineRole = Qt::UserRole, // qulonglong, 0-based
        KindRole,                // int (LandmarkKind)
        KindLabelRole,           // "FAILED"
        KindTextRole,            // "test failed"
    };

    explicit LandmarksModel(QObject* parent = nullptr);

    void append(std::span<const Landmark> landmarks);
    void clear();
    const Landmark& landmarkAt(int row) const;
    // The row of the last landmark at or before `line`, or -1.
    int rowAtOrBefore(LineNumber line) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    std::vector<Landmark> m_landmarks;
};

} // namespace relayhud::ui
