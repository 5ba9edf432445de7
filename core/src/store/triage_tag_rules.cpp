#include "relayhud/store/triage_tag_rules.h"

#include "relayhud/util/time.h"

#include <array>
#include <utility>

namespace relayhud {
namespace {

TagCheck fault(TagFault kind, std::string why) { return {kind, std::move(why)}; }

// The first name that is empty when it must not be, or longer than its limit.
TagCheck checkSizes(const TriageTag& tag)
{
    const TriageTarget& t = tag.target;
    struct Field {
        const char* name;
        const std::string* text;
        std::size_t limit;
        bool required;
    };
    const std::array<Field, 7> fields{{{"repo", &t.repo, kMaxTagNameBytes, true},
                                       {"workflow", &t.workflow, kMaxTagNameBytes, true},
                                       {"job", &t.job, kMaxTagNameBytes, true},
                                       {"test", &t.test, kMaxTagTestBytes, false},
                                       {"author", &tag.author, kMaxTagNameBytes, false},
                                       {"note", &tag.note, kMaxTagNoteBytes, false},
                                       {"sha", &t.sha.value, kMaxTagShaBytes, true}}};
    for (const Field& f : fields) {
        if (f.required && f.text->empty())
            return fault(TagFault::BadTarget, "\"" + std::string(f.name) + "\" is empty");
        if (f.text->size() > f.limit)
            return fault(TagFault::Oversized,
                         "\"" + std::string(f.name) + "\" is " + std::to_string(f.text->size())
                             + " bytes; the limit is " + std::to_string(f.limit));
    }
    if (tag.bugUrl.size() > kMaxTagLinkBytes)
        return fault(TagFault::Oversized, "\"bug\" is " + std::to_string(tag.bugUrl.size())
                                              + " bytes; the limit is "
                                              + std::to_string(kMaxTagLinkBytes));
    return {};
}

} // namespace

std::string tagShaProblem(std::string_view sha)
{
    if (sha.empty() || sha.size() > kMaxTagShaBytes
        || sha.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789._-")
               != std::string_view::npos)
        return "\"sha\": not a commit SHA or delivery id (letters, digits, . _ -)";
    return {};
}

std::string tagLinkProblem(std::string_view link)
{
    if (link.size() > kMaxTagLinkBytes)
        return "\"bug\": a link of " + std::to_string(link.size()) + " bytes; the limit is "
               + std::to_string(kMaxTagLinkBytes);
    if (!link.empty() && !link.starts_with("https://") && !link.starts_with("http://"))
        return "\"bug\": not an http(s) link";
    return {};
}

std::string tagTimeProblem(std::int64_t timeMs, std::int64_t nowMs)
{
    if (timeMs < 0)
        return "\"time\": before 1970";
    if (timeMs > nowMs + kTagClockSkewMs)
        return "\"time\": " + formatIso(timeMs / 1000) + " is in the future";
    return {};
}

TagCheck checkTriageTag(const TriageTag& tag, std::int64_t nowMs)
{
    if (TagCheck sizes = checkSizes(tag); !sizes.ok())
        return sizes;
    if (std::string why = tagShaProblem(tag.target.sha.value); !why.empty())
        return fault(TagFault::BadSha, std::move(why));
    if (tag.target.attempt < 1 || tag.target.attempt > kMaxTagAttempt)
        return fault(TagFault::BadTarget,
                     "\"attempt\" is not a run attempt (a whole number from 1)");
    if (std::string why = tagLinkProblem(tag.bugUrl); !why.empty())
        return fault(TagFault::BadLink, std::move(why));
    if (std::string why = tagTimeProblem(tag.timeMs, nowMs); !why.empty())
        return fault(TagFault::BadTime, std::move(why));
    return {};
}

} // namespace relayhud
