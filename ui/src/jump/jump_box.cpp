#include "relayhud/ui/jump/jump_box.h"

#include "relayhud/ui/jump/jump_model.h"

#include <QApplication>
#include <QGraphicsDropShadowEffect>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace relayhud::ui {

namespace {

constexpr std::size_t kShownEntries = 50;
constexpr int kVisibleRows = 10;

QColor kindColor(JumpEntry::Kind kind)
{
    switch (kind) {
    case JumpEntry::Kind::Commit: return QColor(0x3b, 0x82, 0xf6);
    case JumpEntry::Kind::PullRequest: return QColor(0xa8, 0x55, 0xf7);
    case JumpEntry::Kind::Backend: return QColor(0x14, 0xb8, 0xa6);
    case JumpEntry::Kind::Job: return QColor(0xf5, 0x9e, 0x0b);
    case JumpEntry::Kind::Test: return QColor(0x22, 0xc5, 0x5e);
    }
    return Qt::gray;
}

// One entry: a tinted kind chip, the name, and its detail dimmed after it.
class JumpDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        opt.text.clear();
        const QWidget* widget = opt.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background
        painter->save();
        const bool selected = opt.state.testFlag(QStyle::State_Selected);
        const QRect area = opt.rect.adjusted(6, 0, -6, 0);
        const QRect chip = paintChip(*painter, opt, index, area, selected);
        paintText(*painter, opt, index, area.adjusted(chip.width() + 10, 0, 0, 0), selected);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const override
    {
        return {option.rect.width(), QFontMetrics(option.font).height() + 10};
    }

private:
    static QFont chipFont(const QFont& base)
    {
        QFont font = base;
        font.setPointSizeF(base.pointSizeF() * 0.85);
        return font;
    }

    static QRect paintChip(QPainter& painter, const QStyleOptionViewItem& opt,
                           const QModelIndex& index, const QRect& area, bool selected)
    {
        const QFont font = chipFont(opt.font);
        const QFontMetrics metrics(font);
        const int height = metrics.height() + 4;
        const QRect chip(area.left(), area.center().y() - height / 2 + 1,
                         metrics.horizontalAdvance(QStringLiteral("Backend")) + 14, height);
        const QColor hue =
            kindColor(static_cast<JumpEntry::Kind>(index.data(JumpModel::KindRole).toInt()));
        // A tinted chip with a line of its colour; on the selection, a light
        // chip whose text takes the colour.
        QColor fill = hue;
        fill.setAlpha(55);
        QColor line = hue;
        line.setAlpha(170);
        if (selected) {
            fill = opt.palette.color(QPalette::HighlightedText);
            fill.setAlpha(230);
            line = fill;
        }
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(line, 1));
        painter.setBrush(fill);
        painter.drawRoundedRect(QRectF(chip).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        painter.setFont(font);
        painter.setPen(selected ? hue.darker(150) : opt.palette.color(QPalette::Text));
        painter.drawText(chip, Qt::AlignCenter, index.data(JumpModel::KindLabelRole).toString());
        return chip;
    }

    static void paintText(QPainter& painter, const QStyleOptionViewItem& opt,
                          const QModelIndex& index, const QRect& area, bool selected)
    {
        const QFontMetrics metrics(opt.font);
        painter.setFont(opt.font);
        const QString text = index.data(Qt::DisplayRole).toString();
        const QString detail = index.data(JumpModel::DetailRole).toString();
        const int textWidth = std::min(metrics.horizontalAdvance(text),
                                       detail.isEmpty() ? area.width() : area.width() * 2 / 3);
        painter.setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        painter.drawText(QRect(area.left(), area.top(), textWidth, area.height()),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         metrics.elidedText(text, Qt::ElideMiddle, textWidth));
        const QRect rest = area.adjusted(textWidth + 12, 0, 0, 0);
        if (detail.isEmpty() || rest.width() < 20)
            return;
        QColor dim =
            opt.palette.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText);
        if (selected)
            dim.setAlpha(190);
        painter.setPen(dim);
        painter.drawText(rest, Qt::AlignVCenter | Qt::AlignLeft,
                         metrics.elidedText(detail, Qt::ElideRight, rest.width()));
    }
};

} // namespace

JumpBox::JumpBox(QWidget* window)
    : QFrame(window), m_model(new JumpModel(this)), m_edit(new QLineEdit(this)),
      m_list(new QListView(this)), m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("jumpBox"));
    setFrameShape(QFrame::NoFrame);
    // No autofill: paintEvent draws the rounded panel, its corners show through.
    // Lifted off the matrix below it, in light and dark palettes alike.
    auto* shadow = new QGraphicsDropShadowEffect(this);
    shadow->setBlurRadius(24);
    shadow->setOffset(0, 4);
    shadow->setColor(QColor(0, 0, 0, 110));
    setGraphicsEffect(shadow);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->setSpacing(6);
    m_edit->setPlaceholderText(tr("Jump to a commit, #PR, backend, job or test…"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new JumpDelegate(m_list));
    m_list->setFocusPolicy(Qt::NoFocus); // typing stays in the line edit
    m_list->setUniformItemSizes(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_edit);
    layout->addWidget(m_note);
    layout->addWidget(m_list);
    connect(m_edit, &QLineEdit::textChanged, this, &JumpBox::refresh);
    connect(m_list, &QListView::clicked, this,
            [this](const QModelIndex& index) { choose(index.row()); });
    window->installEventFilter(this); // follows the window's size
    hide();
}

void JumpBox::setIndex(JumpIndex index)
{
    m_index = std::move(index);
    refresh();
}

void JumpBox::popup(const QRect& around)
{
    m_around = around;
    m_returnFocus = QApplication::focusWidget();
    m_edit->clear();
    refresh();
    show();
    raise();
    m_edit->setFocus(Qt::ShortcutFocusReason);
}

void JumpBox::dismiss()
{
    if (!isVisible())
        return;
    hide();
    if (m_returnFocus)
        m_returnFocus->setFocus(Qt::OtherFocusReason);
}

void JumpBox::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(palette().color(QPalette::Window));
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
}

QString JumpBox::noteText() const { return m_note->isVisible() ? m_note->text() : QString(); }

void JumpBox::refresh()
{
    const QString query = m_edit->text().trimmed();
    m_model->setEntries(m_index.match(query, kShownEntries));
    const bool found = m_model->rowCount() > 0;
    if (found)
        m_list->setCurrentIndex(m_model->index(0));
    m_list->setVisible(found);
    m_note->setText(query.isEmpty()
                        ? tr("Type a few characters: a SHA, a PR as #123, a backend, a job, or a "
                             "test of the shown run.")
                        : tr("Nothing matches “%1” among the matrix's commits, PRs, backends and "
                             "jobs, or the shown run's tests.")
                              .arg(query));
    m_note->setVisible(!found);
    fitHeight();
}

void JumpBox::fitHeight()
{
    QWidget* window = parentWidget();
    const QRect around = m_around.isValid() ? m_around : window->rect();
    const int width = std::clamp(around.width() / 2, std::min(460, window->width() - 16),
                                 std::min(680, window->width() - 16));
    const int rows = std::min(m_model->rowCount(), kVisibleRows);
    const int rowHeight = rows > 0 ? m_list->sizeHintForRow(0) : 0;
    m_list->setFixedHeight(rows * rowHeight + 2 * m_list->frameWidth());
    layout()->activate();
    const int height = layout()->sizeHint().height();
    setGeometry(around.center().x() - width / 2, around.top() + 12, width, height);
}

void JumpBox::moveCurrent(int delta)
{
    const int count = m_model->rowCount();
    if (count == 0)
        return;
    const int row = std::clamp(m_list->currentIndex().row() + delta, 0, count - 1);
    m_list->setCurrentIndex(m_model->index(row));
}

void JumpBox::choose(int row)
{
    const JumpEntry* entry = m_model->entry(row);
    if (!entry)
        return;
    const JumpEntry chosenEntry = *entry; // the model is replaced on hide
    dismiss();
    emit chosen(chosenEntry);
}

bool JumpBox::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget()) {
        if (event->type() == QEvent::Resize && isVisible())
            QTimer::singleShot(0, this, &JumpBox::fitHeight);
        return false;
    }
    if (watched != m_edit)
        return false;
    if (event->type() == QEvent::FocusOut && isVisible()) {
        // A click elsewhere; the list takes no focus, so a click on it stays.
        QTimer::singleShot(0, this, [this] {
            if (isVisible() && !m_edit->hasFocus())
                hide();
        });
        return false;
    }
    if (event->type() != QEvent::KeyPress)
        return false;
    const int page = kVisibleRows - 1;
    switch (static_cast<QKeyEvent*>(event)->key()) {
    case Qt::Key_Down: moveCurrent(1); return true;
    case Qt::Key_Up: moveCurrent(-1); return true;
    case Qt::Key_PageDown: moveCurrent(page); return true;
    case Qt::Key_PageUp: moveCurrent(-page); return true;
    case Qt::Key_Return:
    case Qt::Key_Enter: choose(std::max(m_list->currentIndex().row(), 0)); return true;
    case Qt::Key_Escape: dismiss(); return true;
    default: return false;
    }
}

} // namespace relayhud::ui
