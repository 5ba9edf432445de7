#pragma once
// What the tests table is filtered by: outcomes, words, file, op and dtype.
#include "relayhud/model/test_result.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace relayhud::ui {

struct TestsFilter {
    std::uint8_t outcomes = 0; // a bit per TestOutcome (outcomeBit); 0: every outcome
    QString text;              // words; each must occur in the identity or the message, any case
    QString file;              // "": any file
    QString op;                // "": any op (the `op__` marks)
    QString dtype;             // "": any dtype (the `dtype__` marks)

    bool operator==(const TestsFilter&) const = default;
    bool isEmpty() const { return *this == TestsFilter{}; }
    bool allowsOutcome(TestOutcome outcome) const;
    // The text's words, case-folded: what the index searches for.
    QStringList words() const;
};

constexpr std::uint8_t outcomeBit(TestOutcome outcome)
{
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(outcome));
}

} // namespace relayhud::ui
