#pragma once
// The key to the matrix's cells: each state's tile and glyph, the verdict
// marks of greens and the triage mark, painted as the cells paint them.
// Shown from the filter bar's "Key" button (MatrixKeyButton), out of the
// matrix's way.
#include <QToolButton>
#include <QWidget>

namespace relayhud::ui {

class MatrixKey : public QWidget {
    Q_OBJECT
public:
    explicit MatrixKey(QWidget* parent = nullptr);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

// A tool button whose popup is the key.
class MatrixKeyButton : public QToolButton {
    Q_OBJECT
public:
    explicit MatrixKeyButton(QWidget* parent = nullptr);
    MatrixKey* key() const { return m_key; }

private:
    MatrixKey* m_key;
};

} // namespace relayhud::ui
