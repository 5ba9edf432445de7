#pragma once
// Asks why a test moves: the user's words (kept as a comment above the
// entry) and the evidence, prefilled when the cache has it; for "Set mode"
// also the target mode.
#ifndef Q_MOC_RUN
#include "relayhud/config/outcome_config.h"
#endif

#include <QDialog>
#include <QString>

#include <optional>

class QComboBox;
class QLineEdit;

namespace relayhud::ui {

struct RationaleRequest {
    QString test;     // what moves: a base name, or "3 suggestions"
    QString move;     // "xfail_strict -> mandatory_success"; "" when the mode is asked
    QString evidence; // prefilled; "" when none is known
    std::optional<config::Mode> current; // asks for a target mode when set
};

struct Rationale {
    QString reason;
    QString evidence;
    config::Mode mode = config::Mode::MandatorySuccess; // the chosen target, for Set mode
};

class RationaleDialog : public QDialog {
    Q_OBJECT
public:
    explicit RationaleDialog(const RationaleRequest& request, QWidget* parent = nullptr);
    Rationale rationale() const;

    // Runs the dialog; nullopt when cancelled.
    static std::optional<Rationale> ask(const RationaleRequest& request, QWidget* parent);

private:
    QLineEdit* m_reason = nullptr;
    QLineEdit* m_evidence = nullptr;
    QComboBox* m_mode = nullptr;
};

} // namespace relayhud::ui
