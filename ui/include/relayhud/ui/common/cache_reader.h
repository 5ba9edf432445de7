#pragma once
// The window's one-off questions to the cache (a run's relay id for a link,
// the allowlist for Settings, the last sync's time), asked off the GUI thread:
// a worker opens a connection of its own (creating the cache, and its folder,
// on first use), runs the query, closes it, and the answer reaches the GUI
// thread through `answer`. Nothing on the GUI thread touches SQLite or the
// disk. An answer is dropped when the reader is gone or its cache moved.
#include "relayhud/util/result.h"

#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace relayhud {
class Database;
}

namespace relayhud::ui {

class CacheReader : public QObject {
public:
    explicit CacheReader(QObject* parent = nullptr) : QObject(parent) {}

    void setCachePath(std::string path)
    {
        m_cachePath = std::move(path);
        ++m_generation; // answers from the old cache are dropped
    }
    const std::string& cachePath() const { return m_cachePath; }

    template <class T>
    void read(std::function<Result<T>(const Database&)> query,
              std::function<void(const Result<T>&)> answer)
    {
        const std::uint64_t generation = m_generation;
        QtConcurrent::run([path = m_cachePath, query = std::move(query)] {
            return std::optional<Result<T>>(ask<T>(path, query));
        })
            .then(this, [this, generation,
                         answer = std::move(answer)](const std::optional<Result<T>>& result) {
                if (generation == m_generation)
                    answer(*result);
            });
    }

private:
    template <class T>
    static Result<T> ask(const std::string& path,
                         const std::function<Result<T>(const Database&)>& query)
    {
        std::optional<Result<T>> answer;
        const Error opened = withCache(path, [&](const Database& cache) { answer = query(cache); });
        if (!answer)
            return opened;
        return std::move(*answer);
    }
    // Opens the cache at `path` and runs `use` on it; the error when it cannot
    // be opened (`use` is then not run).
    static Error withCache(const std::string& path,
                           const std::function<void(const Database&)>& use);

    std::string m_cachePath;
    std::uint64_t m_generation = 0;
};

} // namespace relayhud::ui
