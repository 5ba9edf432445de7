#include "cli_support.h"

#include "relayhud/store/database.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/read_file.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace relayhud::cli {

std::string Flags::get(const std::string& name, std::string fallback) const
{
    const auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
}

std::vector<std::string> Flags::all(const std::string& name) const
{
    std::vector<std::string> out;
    for (auto [it, end] = values.equal_range(name); it != end; ++it)
        out.push_back(it->second);
    return out;
}

Flags parseFlags(const std::vector<std::string>& args, const std::vector<std::string>& known)
{
    Flags flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (std::find(known.begin(), known.end(), a) == known.end()) {
            flags.error = "unknown argument '" + a + "'";
            return flags;
        }
        if (i + 1 >= args.size()) {
            flags.error = a + " needs a value";
            return flags;
        }
        flags.values.emplace(a.substr(2), args[++i]);
    }
    return flags;
}

namespace {

template <class T>
bool parseNumber(const std::string& text, T& out)
{
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && !text.empty();
}

} // namespace

bool parseInt(const std::string& text, int& out) { return parseNumber(text, out); }
bool parseInt64(const std::string& text, std::int64_t& out) { return parseNumber(text, out); }

Result<RepoSelection> readSelectionFlag(const std::string& item)
{
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        return makeError("--selection takes REPO=FILE (a job log or workflow file), not '" + item
                         + "'");
    // A job log can run to hundreds of MB; the selection reads its first 64 MiB.
    Result<std::string> text = readRegularFile(item.substr(eq + 1), std::uint64_t{512} << 20,
                                               "a job log or workflow file");
    if (!text)
        return text.error();
    return RepoSelection{item.substr(0, eq), config::pytestSelectionFromText(*text)};
}

Result<std::unique_ptr<Database>> openCache(const GlobalOptions& global)
{
    std::string path = global.cachePath;
    if (path.empty()) {
        path = defaultCachePath();
        std::error_code ec;
        std::filesystem::create_directories(defaultCacheDir(), ec);
    }
    return Database::open(path);
}

int fail(std::ostream& err, const std::string& message, int code)
{
    err << "relayhud-cli: " << message << '\n';
    return code;
}

} // namespace relayhud::cli
