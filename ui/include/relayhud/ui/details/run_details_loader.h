#pragma once
// Reads a cell's run for the details panel off the GUI thread: a worker opens
// its own connection to the cache, reads the run, its attempts and its compare
// base (loadRunDetails), and hands the result back to the GUI thread. A newer
// request supersedes an older one, so moving through the matrix with the keys
// shows only the cell the user stopped on.
#include "relayhud/ui/details/run_details.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <string>

namespace relayhud::ui {

class RunDetailsLoader : public QObject {
    Q_OBJECT
public:
    explicit RunDetailsLoader(QObject* parent = nullptr);

    void setCachePath(std::string path);
    // Reads run `rowId` (check_run.id); loaded() or failed() follows unless a
    // later load() or cancel() comes first.
    void load(CheckRunRow rowId);
    void cancel();

signals:
    void loaded(const relayhud::ui::RunDetails& details);
    void failed(CheckRunRow rowId, const QString& message);

private:
    std::string m_cachePath;
    std::uint64_t m_request = 0;
};

} // namespace relayhud::ui
