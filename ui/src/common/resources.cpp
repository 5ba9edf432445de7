#include "relayhud/ui/common/resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace. Calling it also keeps
// the linker from dropping the resource object out of the static library.
static void initRelayhudResources() { Q_INIT_RESOURCE(relayhud); }

namespace relayhud::ui {

void initResources() { initRelayhudResources(); }

} // namespace relayhud::ui
