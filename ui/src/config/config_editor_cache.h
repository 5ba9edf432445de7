#pragma once
// What the editor read from the cache (on a worker): the recent results its
// history strips, suggestions and promotion checks read.
#include "relayhud/store/recent_results.h"
#include "relayhud/ui/config/config_editor_window.h"

#include <QString>

#include <vector>

namespace relayhud::ui {

struct ConfigEditorWindow::CacheData {
    RecentResults recent;
    std::vector<KnownTest> known;
    int runs = 0;
    QString error;
};

} // namespace relayhud::ui
