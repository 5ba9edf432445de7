// The HUD's answers (hud/hud_client.h, hud/row_mapping.h, hud/hud_summaries.h):
// a saved query's rows, the allowlist and the relay-health summaries. Any body
// gives runs, warnings or an Error, never an exception; the same body nested
// 100,000 deep more (200 kB, once a SIGSEGV; issue 35) is refused unread.
#include "fuzz_check.h"
#include "relayhud/hud/hud_client.h"
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/hud/row_mapping.h"
#include "relayhud/util/json_guard.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    const std::string body(reinterpret_cast<const char*>(data), size);
    const std::string url = "https://hud.pytorch.org/api/clickhouse/crcr_backend_dashboard";
    std::vector<CheckRun> nightlies;
    for (const auto& context :
         {RowContext{"org/backend", EventType::PullRequest, {}, 0, "crcr_backend_dashboard"},
          RowContext{"org/backend", EventType::Nightly, {}, 0, "crcr_nightly_dashboard"}}) {
        if (auto page = readHudPage(body, url, context); page) {
            (void)commitsFromRuns(page->runs);
            if (context.eventType == EventType::Nightly)
                nightlies = std::move(page->runs);
        }
    }
    (void)readAllowlist(body, "https://hud.pytorch.org/api/crcr/allowlist");
    const std::string deep = std::string(100'000, '[') + body + std::string(100'000, ']');
    FUZZ_CHECK(!readHudPage(deep, url, {"org/backend", EventType::Nightly, {}, 0, "q"}),
               "an answer nested 100,000 deep is refused");
    FUZZ_CHECK(!readAllowlist(deep, url), "an allowlist nested 100,000 deep is refused");
    FUZZ_CHECK(parseJsonOrDiscarded(deep).is_discarded(), "the guard refuses it too");

    const auto doc = parseJsonOrDiscarded(body);
    if (doc.is_discarded())
        return 0;
    if (auto prs = mapProbePrs(doc); prs)
        (void)judgeRelayHealth(*prs, nightlies);
    (void)mapRepoSummaries(doc);
    (void)mapRunLevels(doc);
    return 0;
}
