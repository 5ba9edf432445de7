#pragma once
// A small std::expected stand-in (g++ 12 has no <expected>): a value or an
// Error whose message a user can act on. Core never throws across its API.
#include <string>
#include <utility>
#include <variant>

namespace relayhud {

struct Error {
    std::string message;
    // The input stopped, or stopped decoding, before its end: what a download
    // cut in transit leaves, which a fetcher asks for again. A refusal (a
    // path out of its folder, a bomb, a limit) is not.
    bool brokeOff = false;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(const T& value) : m_v(std::in_place_index<0>, value) {}
    // Moved in once (a large value, a Resolution, a report, is returned often).
    Result(T&& value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_v(std::in_place_index<1>, std::move(error)) {}
    // A value made in place, to be filled through value() before returning.
    explicit Result(std::in_place_t) : m_v(std::in_place_index<0>) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_v); }
    const std::string& message() const { return error().message; }

private:
    std::variant<T, Error> m_v;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }
    const std::string& message() const { return m_error.message; }

private:
    Error m_error;
    bool m_ok = true;
};

inline Error makeError(std::string message) { return Error{std::move(message)}; }
inline Error brokeOffError(std::string message) { return Error{std::move(message), true}; }

} // namespace relayhud
