#pragma once
// The row of filter controls above the matrix. It edits a MatrixFilterProxy
// and offers choices (backends, branches) taken from the model behind it.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPushButton;

namespace relayhud::ui {

class MatrixFilterProxy;

class FilterBar : public QWidget {
    Q_OBJECT
public:
    explicit FilterBar(MatrixFilterProxy& proxy, QWidget* parent = nullptr);

    // Re-reads backends and branches from the proxy's source model, keeping
    // the current choices.
    void refreshChoices();
    QLineEdit* textEdit() const { return m_text; }
    QComboBox* cellsCombo() const { return m_cells; }

protected:
    // Keeps the backend menu open while backends are ticked.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildLayout();
    void refreshBackendMenu();
    void refreshBranchCombo();
    void applyBackendSelection();
    void syncFromProxy();
    void applyCellChoice();
    void updateCounts();

    MatrixFilterProxy& m_proxy;
    QPushButton* m_backendButton;
    QMenu* m_backendMenu;
    QComboBox* m_branch;
    QComboBox* m_event;
    QLineEdit* m_text;
    QComboBox* m_cells; // every cell, hide green, only failures, only untriaged
    QLabel* m_counts;
};

} // namespace relayhud::ui
