#pragma once

namespace relayhud::ui {

// Registers the app's Qt resources (icon) from the static library. Idempotent.
void initResources();

} // namespace relayhud::ui
