// The instance channel's framing (ui/app/instance_frame.h): the bytes another
// `relayhud` sends over the local socket, which arrive in any pieces. Checked:
//  - whatever the bytes, decoding needs more, refuses in one line, or gives
//    the arguments; a refusal of a length comes from the header alone;
//  - a complete frame is exactly its header's length, and every shorter
//    prefix of it needs more (pieces are waited for, never misread);
//  - the arguments re-encode to a frame that decodes to the same list;
//  - at most kMaxArguments arguments and kMaxBodyBytes bytes are taken.
#include "fuzz_check.h"
#include "relayhud/ui/app/instance_frame.h"

#include <cstddef>
#include <cstdint>

namespace {

using namespace relayhud::ui;
using State = instance_frame::Decoded::State;

quint32 headerLength(QByteArrayView bytes)
{
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    return (quint32{b[0]} << 24) | (quint32{b[1]} << 16) | (quint32{b[2]} << 8) | quint32{b[3]};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const instance_frame::Decoded decoded = instance_frame::decode(bytes);
    if (bytes.size() < instance_frame::kHeaderBytes) {
        FUZZ_CHECK(decoded.state == State::NeedMore, "a header needs four bytes");
        return 0;
    }
    const quint32 length = headerLength(bytes);
    if (length > static_cast<quint32>(instance_frame::kMaxBodyBytes)) {
        FUZZ_CHECK(decoded.state == State::Refused, "an oversized length is refused");
        FUZZ_CHECK(instance_frame::decode(bytes.first(instance_frame::kHeaderBytes)).state
                       == State::Refused,
                   "from the header alone");
    }
    switch (decoded.state) {
    case State::NeedMore:
        FUZZ_CHECK(bytes.size() < instance_frame::kHeaderBytes + qsizetype(length),
                   "more is needed only while the body is short");
        break;
    case State::Refused:
        FUZZ_CHECK(!decoded.why.isEmpty() && !decoded.why.contains(u'\n'), "a refusal is one line");
        break;
    case State::Complete: {
        FUZZ_CHECK(decoded.consumed == instance_frame::kHeaderBytes + qsizetype(length),
                   "a frame is its header's length");
        FUZZ_CHECK(decoded.arguments.size() <= instance_frame::kMaxArguments, "arguments capped");
        for (const qsizetype cut : {decoded.consumed - 1, decoded.consumed / 2})
            if (cut >= 0)
                FUZZ_CHECK(instance_frame::decode(bytes.first(cut)).state != State::Complete,
                           "a prefix of a frame is not a frame");
        const QByteArray again = instance_frame::encode(decoded.arguments);
        const instance_frame::Decoded round = instance_frame::decode(again);
        FUZZ_CHECK(round.state == State::Complete, "re-encoded arguments decode");
        FUZZ_CHECK(round.arguments == decoded.arguments, "to the same arguments");
        break;
    }
    }
    return 0;
}
