#pragma once
// The instance channel's message (app/instance_channel.h), as bytes: a 4-byte
// big-endian length, then a JSON array of strings, the arguments of a second
// `relayhud`. Pure functions, so the framing is tested and fuzzed without a
// socket (fuzz/fuzz_instance_channel.cpp): whatever arrives, in whatever
// pieces, the decoder needs more, refuses in one line, or gives the list.
#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

namespace relayhud::ui::instance_frame {

inline constexpr qsizetype kHeaderBytes = 4;
// A command line's arguments: Linux caps a whole one at 2 MiB, one argument
// at 128 KiB; links and paths are far shorter.
inline constexpr qsizetype kMaxBodyBytes = qsizetype{1} << 20;
inline constexpr qsizetype kMaxArguments = 4096;

QByteArray encode(const QStringList& arguments);

struct Decoded {
    enum class State { NeedMore, Refused, Complete };
    State state = State::NeedMore;
    QStringList arguments;  // when Complete
    QString why;            // when Refused: one line
    qsizetype consumed = 0; // when Complete: the frame's bytes; anything after is not read
};

// The first frame in what has arrived so far. A length over kMaxBodyBytes is
// refused from the header alone, before its body is waited for.
Decoded decode(QByteArrayView buffered);

} // namespace relayhud::ui::instance_frame
