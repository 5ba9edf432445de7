#include "relayhud/ui/app/instance_frame.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QtEndian>

#include <algorithm>

namespace relayhud::ui::instance_frame {

namespace {

Decoded refused(const QString& why)
{
    Decoded out;
    out.state = Decoded::State::Refused;
    out.why = why;
    return out;
}

// The deepest bracket nesting in `json`, brackets inside strings aside. A
// message is one array of strings (depth 1), so anything deeper is refused
// before Qt's parser, which recurses per level (up to 1024), ever sees it.
int nestingDepth(QByteArrayView json)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

QByteArray encode(const QStringList& arguments)
{
    const QByteArray body =
        QJsonDocument(QJsonArray::fromStringList(arguments)).toJson(QJsonDocument::Compact);
    QByteArray out(kHeaderBytes, '\0');
    qToBigEndian(static_cast<quint32>(body.size()), out.data());
    return out + body;
}

Decoded decode(QByteArrayView buffered)
{
    if (buffered.size() < kHeaderBytes)
        return {};
    const quint32 size = qFromBigEndian<quint32>(buffered.data());
    if (size > static_cast<quint64>(kMaxBodyBytes))
        return refused(QStringLiteral("a message of %1 bytes; at most %2 are taken")
                           .arg(size)
                           .arg(kMaxBodyBytes));
    const qsizetype frameBytes = kHeaderBytes + static_cast<qsizetype>(size);
    if (buffered.size() < frameBytes)
        return {};
    const QByteArrayView body = buffered.sliced(kHeaderBytes, static_cast<qsizetype>(size));
    if (nestingDepth(body) > 1)
        return refused(QStringLiteral("the message nests; it must be a flat list of arguments"));
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return refused(QStringLiteral("the message is not a JSON array of arguments"));
    const QJsonArray array = doc.array();
    if (array.size() > kMaxArguments)
        return refused(QStringLiteral("a message of %1 arguments; at most %2 are taken")
                           .arg(array.size())
                           .arg(kMaxArguments));
    Decoded out;
    for (const QJsonValue& value : array) {
        if (!value.isString())
            return refused(QStringLiteral("an argument in the message is not a string"));
        out.arguments << value.toString();
    }
    out.state = Decoded::State::Complete;
    out.consumed = frameBytes;
    return out;
}

} // namespace relayhud::ui::instance_frame
