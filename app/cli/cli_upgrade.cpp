// relayhud-cli upgrade-review: what a PyTorch bump changes in the upstream
// test files a backend's configs name (core/upgrade), read from a local
// checkout through libgit2.
#include "cli_support.h"

#include "relayhud/config/config_file.h"
#include "relayhud/git/git_repository.h"
#include "relayhud/upgrade/upgrade_review.h"

#include <ostream>

namespace relayhud::cli {
namespace {

struct ReviewArgs {
    std::string pytorch, from, to, format = "text";
    std::vector<std::string> configs;
    std::string error;
};

ReviewArgs parseReviewArgs(const std::vector<std::string>& args)
{
    ReviewArgs out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string* value = a == "--pytorch"  ? &out.pytorch
                             : a == "--from"   ? &out.from
                             : a == "--to"     ? &out.to
                             : a == "--format" ? &out.format
                                               : nullptr;
        if (value) {
            if (i + 1 >= args.size()) {
                out.error = a + " needs a value";
                return out;
            }
            *value = args[++i];
        } else if (a.rfind("--", 0) == 0) {
            out.error = "unknown argument '" + a + "'";
            return out;
        } else {
            out.configs.push_back(a);
        }
    }
    if (out.pytorch.empty() || out.from.empty() || out.to.empty() || out.configs.empty())
        out.error = "needs --pytorch DIR --from REV --to REV and at least one CONFIG";
    else if (out.format != "text" && out.format != "tsv")
        out.error = "--format is text or tsv, not '" + out.format + "'";
    return out;
}

} // namespace

int runUpgradeReview(const GlobalOptions&, const std::vector<std::string>& args, std::ostream& out,
                     std::ostream& err)
{
    const ReviewArgs parsed = parseReviewArgs(args);
    if (!parsed.error.empty())
        return fail(err, "upgrade-review: " + parsed.error, kTrouble);
    std::vector<upgrade::ReviewConfig> configs;
    for (const std::string& path : parsed.configs) {
        auto loaded = config::loadConfigFile(path);
        if (!loaded)
            return fail(err, loaded.message(), kTrouble);
        auto config = config::parseOutcomeConfig(loaded->text);
        if (!config)
            return fail(err, path + ": " + config.message(), kTrouble);
        configs.push_back({path, std::move(config->config)});
    }
    auto repo = git::GitRepository::open(parsed.pytorch);
    if (!repo)
        return fail(err, repo.message(), kTrouble);
    auto review = upgrade::reviewUpgrade(*repo, parsed.from, parsed.to, configs);
    if (!review)
        return fail(err, review.message(), kTrouble);
    for (const std::string& problem : review->problems)
        err << "relayhud-cli: upgrade-review: not read whole: " << problem << "\n";
    out << (parsed.format == "tsv" ? upgrade::reviewTsv(*review) : upgrade::reviewText(*review));
    return 0;
}

} // namespace relayhud::cli
