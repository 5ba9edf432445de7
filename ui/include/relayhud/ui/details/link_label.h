#pragma once
// A one-line link: shows its URL (or a caption) elided to fit, the full URL
// as tooltip, and reports clicks and Enter/Space. Plain text only.
#include "relayhud/ui/common/elided_label.h"

#include <QUrl>

namespace relayhud::ui {

class LinkLabel : public ElidedLabel {
    Q_OBJECT
public:
    explicit LinkLabel(QWidget* parent = nullptr);

    // An empty URL shows "—" and is inert.
    void setUrl(const QUrl& url, const QString& caption = {});
    QUrl url() const { return m_url; }

signals:
    void activated(const QUrl& url);

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QUrl m_url;
};

// Opens http(s) URLs in the desktop's browser; refuses anything else.
void openWebUrl(const QUrl& url);

} // namespace relayhud::ui
