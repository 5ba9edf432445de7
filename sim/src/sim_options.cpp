#include "relayhud/sim/sim_options.h"

#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace relayhud::sim {
namespace {

template <class T>
std::optional<T> parseNumber(const std::string& text, T lo, T hi)
{
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < lo
        || value > hi)
        return std::nullopt;
    return value;
}

template <class T>
Result<void> assign(T& target, const std::string& flag, const std::string& value, T lo, T hi,
                    const char* what)
{
    const auto parsed = parseNumber<T>(value, lo, hi);
    if (!parsed)
        return makeError(flag + " expects " + what + ", got '" + value + "'");
    target = *parsed;
    return {};
}

// A credential: any non-empty text without spaces (it travels in headers).
Result<void> assignText(std::string& target, const std::string& flag, const std::string& value)
{
    if (value.empty() || value.find_first_of(" \t\r\n") != std::string::npos)
        return makeError(flag + " expects a non-empty value without spaces");
    target = value;
    return {};
}

using Setter =
    std::function<Result<void>(SimOptions&, const std::string& flag, const std::string& value)>;

Result<void> setNow(SimOptions& o, const std::string& f, const std::string& v)
{
    const auto at = parseInstant(v);
    if (!at || *at < 1 || *at > 253402300799)
        return makeError(f + " expects epoch seconds or a time like 2026-05-04T17:00:00Z, got '" + v
                         + "'");
    o.config.now = *at;
    return {};
}

// PR numbers, repeatable or a comma list.
Result<void> addPrInfoFail(SimOptions& o, const std::string& f, const std::string& v)
{
    std::size_t start = 0;
    while (start <= v.size()) {
        const std::size_t comma = std::min(v.find(',', start), v.size());
        std::int64_t pr = 0;
        auto ok = assign<std::int64_t>(pr, f, v.substr(start, comma - start), 1, INT64_MAX,
                                       "PR numbers (repeatable, or a comma list)");
        if (!ok)
            return ok;
        o.faults.prInfoFail.push_back(PrNumber{pr});
        start = comma + 1;
    }
    return {};
}

// A path that must not be empty: "a folder", "a file".
Setter pathFlag(std::string SimOptions::*target, const char* what)
{
    return
        [target, what](SimOptions& o, const std::string& f, const std::string& v) -> Result<void> {
            if (v.empty())
                return makeError(f + " expects " + what);
            o.*target = v;
            return {};
        };
}

// The world: where it listens, what it simulates, and what it writes.
std::map<std::string, Setter> worldFlags()
{
    return {
        {"--port",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.port, f, v, 0, 65535, "a port in 0..65535");
         }},
        {"--seed",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign<std::uint64_t>(o.config.seed, f, v, 0, UINT64_MAX,
                                          "an unsigned integer");
         }},
        {"--commits",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.config.commits, f, v, 1, 1000000, "an integer in 1..1000000");
         }},
        {"--jobs-scale",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.config.jobsScale, f, v, 1, 1000, "an integer in 1..1000");
         }},
        {"--now", setNow},
        {"--write-configs", pathFlag(&SimOptions::writeConfigsDir, "a folder")},
        {"--write-truth", pathFlag(&SimOptions::writeTruthFile, "a file")},
    };
}

// The faults it injects.
std::map<std::string, Setter> faultFlags()
{
    return {
        {"--error-rate",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.errorRate, f, v, 0.0, 1.0, "a rate in 0..1");
         }},
        {"--latency-ms",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.latencyMs, f, v, 0, 600000, "milliseconds in 0..600000");
         }},
        {"--429-every",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.tooManyEvery, f, v, 0, 1000000, "a request count (0 = never)");
         }},
        {"--truncate-rate",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.truncateRate, f, v, 0.0, 1.0, "a rate in 0..1");
         }},
        {"--drop-rate",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.dropRate, f, v, 0.0, 1.0, "a rate in 0..1");
         }},
        {"--max-response-bytes",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign<std::uint64_t>(o.faults.maxResponseBytes, f, v, 0, UINT64_MAX,
                                          "a byte count (0 = no cap)");
         }},
        {"--allowlist-fail-after",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.allowlistFailAfter, f, v, 0, 1000000000, "a request count");
         }},
        {"--allowlist-stale-after",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.faults.allowlistStaleAfter, f, v, 0, 1000000000, "a request count");
         }},
        {"--pr-info-fail", addPrInfoFail},
    };
}

// The artifact stores' credentials and limits.
std::map<std::string, Setter> storeFlags()
{
    return {
        {"--github-token",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assignText(o.stores.githubToken, f, v);
         }},
        {"--s3-access-key-id",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assignText(o.stores.s3AccessKeyId, f, v);
         }},
        {"--s3-secret-access-key",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assignText(o.stores.s3SecretAccessKey, f, v);
         }},
        {"--github-rate-limit",
         [](SimOptions& o, const std::string& f, const std::string& v) {
             return assign(o.stores.githubRateLimit, f, v, 1, 1000000,
                           "requests per hour in 1..1000000");
         }},
    };
}

// Flags that take a value.
const std::map<std::string, Setter>& valueFlags()
{
    static const std::map<std::string, Setter> table = [] {
        std::map<std::string, Setter> all = worldFlags();
        all.merge(faultFlags());
        all.merge(storeFlags());
        return all;
    }();
    return table;
}

Result<void> applySwitch(SimOptions& options, const std::string& flag)
{
    if (flag == "--help" || flag == "-h")
        options.help = true;
    else if (flag == "--html-errors")
        options.faults.htmlErrors = true;
    else if (flag == "--exit-on-stdin-eof")
        options.exitOnStdinEof = true;
    else
        return makeError("unknown option '" + flag + "' (see --help)");
    return {};
}

} // namespace

Result<SimOptions> parseSimOptions(const std::vector<std::string>& args)
{
    SimOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> value;
        if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag.resize(eq);
        }
        const auto setter = valueFlags().find(flag);
        if (setter == valueFlags().end()) {
            auto ok = value ? Result<void>(makeError("option '" + flag + "' takes no value"))
                            : applySwitch(options, flag);
            if (!ok)
                return ok.error();
            continue;
        }
        if (!value && i + 1 >= args.size())
            return makeError(flag + " needs a value");
        auto ok = setter->second(options, flag, value ? *value : args[++i]);
        if (!ok)
            return ok.error();
    }
    options.faults.seed = options.config.seed;
    return options;
}

std::string simUsage()
{
    return "usage: relayhud-sim [options]\n"
           "Serves the PyTorch HUD read API (CRCR) on 127.0.0.1 from a deterministic dataset,\n"
           "and the downstream artifact stores its rows point at: GitHub's Actions API\n"
           "(runs, jobs, job logs, artifacts) at /api/v3, an S3 bucket at /s3 and plain\n"
           "HTTPS report files at /files.\n"
           "The first line on stdout is 'listening on http://127.0.0.1:PORT'; the next two\n"
           "are 'github api URL' and 's3 endpoint URL'.\n"
           "\n"
           "  --port N               port to listen on (0, the default, picks a free one)\n"
           "  --seed S               dataset and fault seed (default 1)\n"
           "  --commits N            upstream commits (default 200)\n"
           "  --jobs-scale N         multiply every backend's test shards (default 1)\n"
           "  --now TIME             the world as of TIME, epoch seconds or 2026-05-04T17:00:00Z\n"
           "                         (default: now, rounded down to the hour); the server's\n"
           "                         clock starts there too\n"
           "  --exit-on-stdin-eof    exit when stdin closes (for a parent process)\n"
           "  --write-configs DIR    write each backend's outcome config into DIR, print\n"
           "                         'repo<TAB>path' lines and exit without serving\n"
           "  --write-truth FILE     write the ground truth to FILE, then serve as usual (the\n"
           "                         same world): one JSON line per failing test of each\n"
           "                         pull_request and nightly row's JUnit (rows with an\n"
           "                         artifact), or per failed job whose artifact shows no\n"
           "                         failing test (cancelled runs excluded):\n"
           "                         {\"check_run_id\": \"...\", \"test\": \"file::Class::name\" "
           "or \"\",\n"
           "                          \"cause\": this_pr|broken_trunk|backend|flaky|infra|\n"
           "                          unexpected_pass, \"culprit_pr\": N or null}\n"
           "                         With --write-configs, writes both and exits.\n"
           "faults (deterministic from the seed):\n"
           "  --error-rate R         answer a share R of requests with 500\n"
           "  --latency-ms N         delay every answer by N ms\n"
           "  --429-every N          answer every Nth request 429 with Retry-After: 1\n"
           "  --truncate-rate R      cut a share R of 200 bodies in half\n"
           "  --drop-rate R          close a share R of connections without answering\n"
           "  --html-errors          send injected errors as an HTML page, as a proxy does\n"
           "real HUD failures:\n"
           "  --max-response-bytes N  answer 500 FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE (as\n"
           "                         Vercel does above 4.5 MB: use 4500000) for any HUD\n"
           "                         answer whose uncompressed body exceeds N bytes\n"
           "  --allowlist-fail-after N  the allowlist answers N GETs, then 502\n"
           "                         {\"error\": \"Failed to fetch allowlist from GitHub: 503\"}\n"
           "                         (its GitHub fetch fails, nothing cached)\n"
           "  --allowlist-stale-after N  the allowlist answers N GETs, then 200 with\n"
           "                         X-Cache: STALE (fetch fails, the cached copy is served)\n"
           "  --pr-info-fail PR      pr-info answers 500 {\"error\": \"Failed to fetch PR info\"}\n"
           "                         to any batch holding PR (repeatable or a comma list;\n"
           "                         unknown PR numbers always do)\n"
           "artifact stores:\n"
           "  --github-token T       token the GitHub API accepts for downloads\n"
           "                         (default ghs_relayhudSimulatorToken0000000000)\n"
           "  --github-rate-limit N  API requests per hour with the token (default 5000)\n"
           "  --s3-access-key-id K   the bucket's SigV4 access key id (default RELAYHUDSIMULATOR)\n"
           "  --s3-secret-access-key S  its secret (default relayhud/simulator/secret);\n"
           "                         region us-east-1, bucket ascend-pytorch-ci\n"
           "  --help                 this text\n";
}

} // namespace relayhud::sim
