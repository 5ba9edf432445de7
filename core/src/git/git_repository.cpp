#include "relayhud/git/git_repository.h"

#include <git2.h>

#include <mutex>

namespace relayhud::git {
namespace {

void initOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { git_libgit2_init(); }); // for the process's life
}

std::string lastError(const std::string& what)
{
    const git_error* e = git_error_last();
    return what + (e && e->message ? std::string(": ") + e->message : std::string());
}

template <class T, void (*Free)(T*)>
struct Owned {
    T* p = nullptr;
    Owned() = default;
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { Free(p); }
};

using Object = Owned<git_object, git_object_free>;
using Commit = Owned<git_commit, git_commit_free>;
using Tree = Owned<git_tree, git_tree_free>;
using Entry = Owned<git_tree_entry, git_tree_entry_free>;
using Blob = Owned<git_blob, git_blob_free>;

} // namespace

struct GitRepository::State {
    git_repository* repo = nullptr;
    std::string path;
    ~State() { git_repository_free(repo); }

    Result<void> treeOf(const std::string& commit, Tree& tree) const
    {
        git_oid oid;
        Commit c;
        if (git_oid_fromstr(&oid, commit.c_str()) != 0 || git_commit_lookup(&c.p, repo, &oid) != 0)
            return makeError(lastError("no commit " + commit + " in " + path));
        if (git_commit_tree(&tree.p, c.p) != 0)
            return makeError(lastError("the tree of " + commit + " in " + path));
        return {};
    }
};

GitRepository::GitRepository(std::unique_ptr<State> state) : m_state(std::move(state)) {}
GitRepository::GitRepository(GitRepository&&) noexcept = default;
GitRepository& GitRepository::operator=(GitRepository&&) noexcept = default;
GitRepository::~GitRepository() = default;

Result<GitRepository> GitRepository::open(const std::string& path)
{
    initOnce();
    auto state = std::make_unique<State>();
    state->path = path;
    if (git_repository_open_ext(&state->repo, path.c_str(), 0, nullptr) != 0)
        return makeError(lastError(path + " is not a git checkout"));
    return GitRepository(std::move(state));
}

Result<std::string> GitRepository::resolve(const std::string& revision) const
{
    Object object;
    if (git_revparse_single(&object.p, m_state->repo, revision.c_str()) != 0)
        return makeError(lastError("no revision '" + revision + "' in " + m_state->path));
    Object commit;
    if (git_object_peel(&commit.p, object.p, GIT_OBJECT_COMMIT) != 0)
        return makeError(lastError("'" + revision + "' is not a commit"));
    char sha[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(sha, sizeof sha, git_object_id(commit.p));
    return std::string(sha);
}

Result<std::optional<std::string>> GitRepository::readFile(const std::string& commit,
                                                           const std::string& path) const
{
    Tree tree;
    if (auto got = m_state->treeOf(commit, tree); !got)
        return got.error();
    Entry entry;
    const int found = git_tree_entry_bypath(&entry.p, tree.p, path.c_str());
    if (found == GIT_ENOTFOUND)
        return std::optional<std::string>{};
    if (found != 0)
        return makeError(lastError(path + " at " + commit));
    if (git_tree_entry_type(entry.p) != GIT_OBJECT_BLOB)
        return std::optional<std::string>{}; // a folder is no file
    Blob blob;
    if (git_blob_lookup(&blob.p, m_state->repo, git_tree_entry_id(entry.p)) != 0)
        return makeError(lastError(path + " at " + commit));
    const auto* bytes = static_cast<const char*>(git_blob_rawcontent(blob.p));
    return std::optional<std::string>{
        std::string(bytes, static_cast<std::size_t>(git_blob_rawsize(blob.p)))};
}

Result<std::vector<std::string>> GitRepository::listFiles(const std::string& commit,
                                                          const std::string& folder) const
{
    Tree root;
    if (auto got = m_state->treeOf(commit, root); !got)
        return got.error();
    Tree sub;
    git_tree* walked = root.p;
    std::string prefix;
    if (!folder.empty()) {
        Entry entry;
        if (git_tree_entry_bypath(&entry.p, root.p, folder.c_str()) != 0
            || git_tree_entry_type(entry.p) != GIT_OBJECT_TREE)
            return std::vector<std::string>{};
        if (git_tree_lookup(&sub.p, m_state->repo, git_tree_entry_id(entry.p)) != 0)
            return makeError(lastError(folder + " at " + commit));
        walked = sub.p;
        prefix = folder.back() == '/' ? folder : folder + "/";
    }
    struct Walk {
        std::string prefix;
        std::vector<std::string> files;
    } walk{prefix, {}};
    const auto each = [](const char* folderPath, const git_tree_entry* e, void* payload) -> int {
        if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
            auto* w = static_cast<Walk*>(payload);
            w->files.push_back(w->prefix + folderPath + git_tree_entry_name(e));
        }
        return 0;
    };
    if (git_tree_walk(walked, GIT_TREEWALK_PRE, each, &walk) != 0)
        return makeError(lastError("listing " + folder + " at " + commit));
    return std::move(walk.files);
}

} // namespace relayhud::git
