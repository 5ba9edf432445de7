#pragma once
// A local git checkout read at any revision through libgit2, never a shell
// `git` (issue 39): what the upgrade review needs of a PyTorch checkout, the
// files of a folder and a file's bytes as a commit has them. The work tree
// and the index are not read: a revision is a tag, a branch or a SHA
// (anything `git rev-parse` takes), peeled to its commit.
#include "relayhud/util/result.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::git {

class GitRepository {
public:
    // `path`: the checkout or a folder in it (found upwards, as git does).
    static Result<GitRepository> open(const std::string& path);
    GitRepository(GitRepository&&) noexcept;
    GitRepository& operator=(GitRepository&&) noexcept;
    ~GitRepository();

    // The 40-hex SHA of the commit `revision` names; an Error saying which
    // revision the checkout does not have.
    Result<std::string> resolve(const std::string& revision) const;
    // The file's bytes at `commit` (as resolve() gives it); none when the
    // commit has no file there.
    Result<std::optional<std::string>> readFile(const std::string& commit,
                                                const std::string& path) const;
    // The files under `folder` at `commit`, recursively, as paths from the
    // repository's root in git's order; none under a folder it lacks.
    Result<std::vector<std::string>> listFiles(const std::string& commit,
                                               const std::string& folder) const;

private:
    struct State;
    explicit GitRepository(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

} // namespace relayhud::git
