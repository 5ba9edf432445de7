#pragma once
// A one-line plain-text label that elides its text to the width it gets and
// keeps the full text in its tooltip, so long CI text never widens a layout.
#include <QLabel>

namespace relayhud::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(Qt::TextElideMode mode = Qt::ElideRight, QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_fullText; }
    // On (default): the tooltip shows the full text whenever it is elided.
    void setAutoToolTip(bool on) { m_autoToolTip = on; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateElided();

    Qt::TextElideMode m_mode;
    QString m_fullText;
    bool m_autoToolTip = true;
};

} // namespace relayhud::ui
