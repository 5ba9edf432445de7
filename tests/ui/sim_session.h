#pragma once
// A main window's session against the simulator over loopback, for the GUI
// flow tests: the settings that point every store at the server, its tokens,
// and how to find a failed cell with artifacts.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/window/main_window.h"

#include <QAbstractItemModel>
#include <QString>

#include <gtest/gtest.h>

#include <string>

namespace relayhud::ui::test {

inline sim::SimDataset dataset()
{
    sim::SimConfig config;
    config.seed = 3;
    config.commits = 40;
    return sim::buildDataset(config);
}

inline SessionConfig simSession(const sim::SimServer& server, const QString& cachePath,
                                Credentials credentials)
{
    const QString base = QString::fromStdString(server.baseUrl());
    SessionConfig config;
    config.settings.cachePath = cachePath;
    config.settings.hudUrl = base;
    config.settings.historyDays = 30;
    config.settings.githubApiUrl = base + QStringLiteral("/api/v3");
    config.settings.s3Endpoint = base + QStringLiteral("/s3");
    config.settings.artifactPolicy = ArtifactPolicy::OnDemand;
    config.persistWindow = false;
    config.persistSettings = false;
    config.sessionCredentials = std::move(credentials);
    return config;
}

// A session on a cache that was filled beforehand (fillCache): the HUD and
// the artifact stores at `hudUrl` (by default nothing listens there), never
// the keychain, no sync at start unless asked.
inline SessionConfig offlineSession(const QString& cachePath,
                                    const QString& hudUrl = QStringLiteral("http://127.0.0.1:1"),
                                    bool syncOnStart = false)
{
    SessionConfig config;
    config.settings.cachePath = cachePath;
    config.settings.hudUrl = hudUrl;
    config.settings.historyDays = 30;
    config.persistWindow = false;
    config.persistSettings = false;
    config.syncOnStart = syncOnStart;
    config.settings.githubApiUrl = hudUrl + QStringLiteral("/api/v3");
    config.settings.s3Endpoint = hudUrl + QStringLiteral("/s3");
    config.settings.artifactPolicy = ArtifactPolicy::OnDemand;
    config.sessionCredentials = Credentials{};
    return config;
}

// The dataset's backends, commits and runs in a cache at `path`, as a HUD
// sync stores them.
void fillCache(const std::string& path, const sim::SimDataset& data);

inline Credentials simCredentials(const sim::SimServer& server)
{
    Credentials c;
    c.githubToken = server.githubToken();
    c.s3AccessKeyId = server.s3AccessKeyId();
    c.s3SecretAccessKey = server.s3SecretAccessKey();
    return c;
}

// The first failed cell of `backend` whose run names artifacts.
inline QModelIndex failedCellWithArtifacts(const QAbstractItemModel& model, const QString& backend)
{
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            if (index.data(MatrixModel::CellStateRole).toInt()
                    == static_cast<int>(CellState::Failure)
                && index.data(MatrixModel::HasArtifactsRole).toBool()
                && index.data(MatrixModel::BackendRole).toString() == backend)
                return index;
        }
    return {};
}

} // namespace relayhud::ui::test
