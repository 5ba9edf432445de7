// pytestSelectionFromText(): shell-like words of each line that runs pytest
// (directly, through run_test.sh, or as a workflow's extra_test_flags), their
// -m expression evaluated for a test marked xfail, and --runxfail.
#include "relayhud/config/pytest_selection.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

namespace relayhud::config {
namespace {

constexpr std::size_t kMaxExpression = 1024;
constexpr std::size_t kMaxLine = 64 * 1024; // longer lines are not commands we read

// Words as a shell splits them: whitespace outside quotes ends a word, quotes
// are removed, a backslash keeps the next character.
std::vector<std::string> shellWords(std::string_view line)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            inWord = true;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line[++i];
            inWord = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

bool endsWith(std::string_view text, std::string_view tail)
{
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// One command's arguments: after the pytest or run_test.sh word, or after a
// flags key. `quotesGone`: the echo of run-test-suite, where bash removed the
// quotes around the -m expression.
struct Command {
    std::vector<std::string> args;
    bool quotesGone = false;
};

std::optional<Command> commandIn(std::string_view line)
{
    if (line.size() > kMaxLine)
        return std::nullopt;
    if (const std::size_t at = line.find("Extra flags"); at != std::string_view::npos) {
        const std::size_t colon = line.find(':', at);
        if (colon != std::string_view::npos)
            return Command{shellWords(line.substr(colon + 1)), true};
    }
    std::vector<std::string> words = shellWords(line);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const bool flagsKey = w == "extra_test_flags:";
        // "Usage: run_test.sh <config.yaml> [extra pytest args...]" is prose.
        if (i > 0 && (words[i - 1] == "Usage:" || words[i - 1] == "usage:"))
            return std::nullopt;
        if (w == "pytest" || endsWith(w, "/pytest") || endsWith(w, "run_test.sh") || flagsKey) {
            Command command;
            for (std::size_t j = i + 1; j < words.size(); ++j) {
                // A YAML value quoted whole is one word: split it again.
                if (flagsKey && words.size() == i + 2 && words[j].find(' ') != std::string::npos)
                    for (std::string& part : shellWords(words[j]))
                        command.args.push_back(std::move(part));
                else
                    command.args.push_back(words[j]);
            }
            // Prose ("[extra pytest args...]") has no option and no test path.
            const bool looksLikeCommand =
                flagsKey
                || std::any_of(command.args.begin(), command.args.end(), [](const std::string& a) {
                       const bool placeholder = a.rfind('<', 0) == 0 || a.rfind('[', 0) == 0;
                       return a.rfind('-', 0) == 0
                              || (!placeholder
                                  && (endsWith(a, ".py") || endsWith(a, ".yaml")
                                      || a.find("::") != std::string::npos));
                   });
            if (looksLikeCommand)
                return command;
            return std::nullopt;
        }
    }
    return std::nullopt;
}

struct CommandSelection {
    bool hasMark = false;
    std::string expression;
    bool runxfail = false;
};

CommandSelection selectionOf(const Command& command)
{
    CommandSelection out;
    const std::vector<std::string>& args = command.args;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--runxfail") {
            out.runxfail = true;
        } else if (a == "-m" && i + 1 < args.size()) {
            out.hasMark = true;
            out.expression = args[++i];
            // Quotes removed: the expression runs to the next option.
            while (command.quotesGone && i + 1 < args.size() && args[i + 1].rfind('-', 0) != 0)
                out.expression += " " + args[++i];
        } else if (a.size() > 2 && a.rfind("-m", 0) == 0 && a[2] != '-') {
            out.hasMark = true;
            out.expression = a.substr(2);
        }
    }
    return out;
}

enum class Token : unsigned char { Ident, Not, And, Or, Open, Close };

std::optional<std::vector<std::pair<Token, bool>>> tokens(std::string_view expression)
{
    std::vector<std::pair<Token, bool>> out; // the bool: an ident that is `xfail`
    std::size_t i = 0;
    while (i < expression.size()) {
        const char c = expression[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '(' || c == ')') {
            out.push_back({c == '(' ? Token::Open : Token::Close, false});
            ++i;
        } else {
            std::size_t end = i;
            while (end < expression.size()
                   && !std::isspace(static_cast<unsigned char>(expression[end]))
                   && expression[end] != '(' && expression[end] != ')')
                ++end;
            const std::string_view word = expression.substr(i, end - i);
            if (word == "not")
                out.push_back({Token::Not, false});
            else if (word == "and")
                out.push_back({Token::And, false});
            else if (word == "or")
                out.push_back({Token::Or, false});
            else
                out.push_back({Token::Ident, word == "xfail"});
            i = end;
        }
    }
    return out;
}

int precedence(Token t) { return t == Token::Not ? 3 : t == Token::And ? 2 : 1; }

// Applies the operator on top of `ops` to `values`; false on a malformed expression.
bool apply(std::vector<Token>& ops, std::vector<bool>& values)
{
    const Token op = ops.back();
    ops.pop_back();
    if (op == Token::Not) {
        if (values.empty())
            return false;
        values.back() = !values.back();
        return true;
    }
    if (values.size() < 2)
        return false;
    const bool right = values.back();
    values.pop_back();
    values.back() = op == Token::And ? (values.back() && right) : (values.back() || right);
    return true;
}

} // namespace

const char* triName(Tri value)
{
    switch (value) {
    case Tri::No: return "no";
    case Tri::Yes: return "yes";
    case Tri::Unknown: return "unknown";
    }
    return "?";
}

Tri expressionDeselectsXfail(std::string_view expression)
{
    if (expression.size() > kMaxExpression)
        return Tri::Unknown;
    const auto list = tokens(expression);
    if (!list || list->empty())
        return Tri::Unknown;
    // Shunting-yard with a check that operands and operators alternate.
    std::vector<Token> ops;
    std::vector<bool> values;
    bool wantOperand = true;
    for (const auto& [token, isXfail] : *list) {
        switch (token) {
        case Token::Ident:
            if (!wantOperand)
                return Tri::Unknown;
            values.push_back(isXfail);
            wantOperand = false;
            break;
        case Token::Not:
        case Token::Open:
            if (!wantOperand)
                return Tri::Unknown;
            ops.push_back(token);
            break;
        case Token::And:
        case Token::Or:
            if (wantOperand)
                return Tri::Unknown;
            while (!ops.empty() && ops.back() != Token::Open
                   && precedence(ops.back()) >= precedence(token))
                if (!apply(ops, values))
                    return Tri::Unknown;
            ops.push_back(token);
            wantOperand = true;
            break;
        case Token::Close:
            if (wantOperand)
                return Tri::Unknown;
            while (!ops.empty() && ops.back() != Token::Open)
                if (!apply(ops, values))
                    return Tri::Unknown;
            if (ops.empty())
                return Tri::Unknown;
            ops.pop_back();
            break;
        }
    }
    if (wantOperand)
        return Tri::Unknown;
    while (!ops.empty()) {
        if (ops.back() == Token::Open || !apply(ops, values))
            return Tri::Unknown;
    }
    if (values.size() != 1)
        return Tri::Unknown;
    return values.front() ? Tri::No : Tri::Yes;
}

PytestSelection pytestSelectionFromText(std::string_view text, std::size_t maxBytes)
{
    PytestSelection out;
    const bool cut = text.size() > maxBytes;
    text = text.substr(0, std::min(text.size(), maxBytes));
    std::optional<Tri> agreed;
    std::size_t firstOther = 0; // a line that disagrees with the first command
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        ++lineNumber;
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        const std::optional<Command> command = commandIn(line);
        if (!command)
            continue;
        const CommandSelection s = selectionOf(*command);
        const Tri deselects = s.hasMark ? expressionDeselectsXfail(s.expression) : Tri::No;
        out.runxfail = out.runxfail || s.runxfail;
        if (++out.commands == 1) {
            out.line = lineNumber;
            out.markExpression = s.expression;
            agreed = deselects;
        } else if (deselects != *agreed && !firstOther) {
            firstOther = lineNumber;
        }
    }
    if (!agreed) {
        out.why = cut ? "no pytest command line in the first " + std::to_string(maxBytes >> 20)
                            + " MiB read"
                      : std::string("no pytest command line found");
        return out;
    }
    const std::string where = "line " + std::to_string(out.line);
    if (firstOther) {
        out.why = "pytest commands disagree: " + where + " and line " + std::to_string(firstOther)
                  + " select xfail tests differently";
        return out;
    }
    out.deselectsXfail = *agreed;
    switch (*agreed) {
    case Tri::Yes:
        out.why = "-m \"" + out.markExpression + "\" at " + where
                  + " deselects every xfail and xfail_strict test (and unlisted ones)";
        break;
    case Tri::No:
        out.why = out.markExpression.empty()
                      ? "the pytest command at " + where + " has no -m: xfail tests run"
                      : "-m \"" + out.markExpression + "\" at " + where + " keeps xfail tests";
        break;
    case Tri::Unknown:
        out.why = "the marker expression -m \"" + out.markExpression + "\" at " + where
                  + " cannot be read";
        break;
    }
    if (out.runxfail)
        out.why += "; --runxfail reports xfail tests as plain tests";
    return out;
}

} // namespace relayhud::config
