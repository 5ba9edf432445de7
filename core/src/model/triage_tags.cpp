#include "relayhud/model/triage_tags.h"

namespace relayhud {

bool isTriagedClass(triage::FailureClass cls)
{
    return cls != triage::FailureClass::Unset && cls != triage::FailureClass::Untriaged;
}

} // namespace relayhud
