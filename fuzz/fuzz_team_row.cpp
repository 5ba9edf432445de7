// A team pull's row decoding (team/team_row.h): any row a teammate could
// write gives a change or a reason to skip it, never a crash; a change it
// gives is one the cache may keep, which `triage import` reads back from an
// export as the same tag (the round trip the hostile rows of issue 35 broke).
//
// Input: the row's 15 columns (seq, change_id, kind, repo, workflow, job,
// sha, attempt, test, field, value, client ms, author, base_seq, received
// ms), split by
// byte 0x1F; a column that is the single byte 0x1E is NULL (withheld by the
// server), and missing columns are NULL.
#include "fuzz_check.h"
#include "relayhud/store/triage_tag_rules.h"
#include "relayhud/team/team_row.h"
#include "relayhud/triage/triage_exchange.h"
#include "relayhud/util/time.h"

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

using Column = std::optional<std::string>;

std::array<Column, 15> columns(std::string_view input)
{
    std::array<Column, 15> out;
    std::size_t i = 0;
    while (i < out.size()) {
        const std::size_t end = input.find('\x1f');
        const std::string_view part = input.substr(0, end);
        if (part != "\x1e")
            out[i] = std::string(part);
        ++i;
        if (end == std::string_view::npos)
            break;
        input.remove_prefix(end + 1);
    }
    return out;
}

// The tag a pulled change becomes (as the cache applies one field to a tag
// that had none).
relayhud::TriageTag tagOf(const relayhud::TeamChange& c)
{
    relayhud::TriageTag tag;
    tag.target = c.target;
    tag.cls = relayhud::triage::FailureClass::Untriaged;
    if (c.field == relayhud::TeamField::Class)
        tag.cls = relayhud::triage::parseTagClass(c.value).value_or(tag.cls);
    if (c.field == relayhud::TeamField::Note)
        tag.note = c.value;
    if (c.field == relayhud::TeamField::Bug)
        tag.bugUrl = c.value;
    tag.author = c.author;
    tag.timeMs = c.clientMs;
    return tag;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    auto c = columns(std::string_view(reinterpret_cast<const char*>(data), size));
    const team::TeamRowText row{c[0], c[1], c[2],  c[3],  c[4],  c[5],  c[6], c[7],
                                c[8], c[9], c[10], c[11], c[12], c[13], c[14]};
    const team::DecodedTeamRow decoded = team::decodeTeamRow(row);
    if (!decoded.change)
        return 0;
    FUZZ_CHECK(decoded.seq.has_value(), "a change has the seq it came with");
    const TriageTag tag = tagOf(*decoded.change);
    std::int64_t received = 0;
    FUZZ_CHECK(c[14]
                   && std::from_chars(c[14]->data(), c[14]->data() + c[14]->size(), received).ec
                          == std::errc(),
               "a change came with its time of arrival");
    FUZZ_CHECK(checkTriageTag(tag, received).ok(), "a change keeps to the tag rules");
    // A server's arrival times are in its past; import checks against now.
    if (received > nowMilliseconds())
        return 0;
    const auto again = triage::parseTriageJson(triage::exportTriageJson({tag}));
    FUZZ_CHECK(again.ok(), "a pulled change exports and imports again");
    FUZZ_CHECK(again->size() == 1 && (*again)[0] == tag, "as the same tag");
    return 0;
}
