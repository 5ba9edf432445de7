#pragma once
// Suggestions (triage/suggest.h) in the words the panel shows: the evidence as
// short lines ("baseline a8f3c21 (attempt 1): passed", "log line 1234, rule
// 'runner lost' (infra): ...") and a suggestion as a TestTriage.
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/tests/tests_panel_data.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace relayhud::ui {

QString evidenceLine(const triage::Evidence& evidence);
QStringList evidenceLines(const std::vector<triage::Evidence>& evidence);
// The suggestion's class, why and evidence; no tag.
TestTriage toTestTriage(const triage::Suggestion& suggestion);
// "a8f3c21": the first 7 characters of a SHA.
QString shortSha(const Sha& sha);

} // namespace relayhud::ui
