#pragma once
// A thin RAII layer over libpq (private to team/): a connection, a result,
// and errors that say what the server said, with its SQLSTATE.
#include "relayhud/util/result.h"

#include <memory>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace relayhud::team {

class PgResult {
public:
    int rows() const;
    std::string text(int row, int column) const;
    bool isNull(int row, int column) const;

private:
    friend class PgConnection;
    struct Free {
        void operator()(pg_result* r) const;
    };
    std::unique_ptr<pg_result, Free> m_result;
};

class PgConnection {
public:
    // `conninfo` is a libpq keyword string or URI, passed on unchanged; libpq
    // reads PGPASSWORD and ~/.pgpass itself, and honours sslmode. A
    // `password` (the keychain's) is used when the conninfo names none.
    // Every statement and lock wait after connecting is bounded by
    // `timeoutSeconds` too (statement_timeout, lock_timeout): a server or a
    // session that holds a lock never hangs the caller.
    static Result<PgConnection> open(const std::string& conninfo, int timeoutSeconds,
                                     const std::string& password = {});

    // Runs one statement (or several, without parameters); text parameters
    // $1... are sent apart from the SQL, never spliced into it.
    Result<PgResult> exec(const std::string& sql, const std::vector<std::string>& params = {});

    bool ok() const;
    // The SQLSTATE of the last statement that failed ("" when it worked).
    const std::string& lastState() const { return m_lastState; }
    int timeoutSeconds() const { return m_timeoutSeconds; }
    // The connection's socket, to wait on for notifications; -1 when closed.
    int socket() const;
    // Reads what the server sent and drops the notifications it holds:
    // how many there were, or an error when the connection is gone.
    Result<int> takeNotifications();

    const std::string& sessionUser() const { return m_user; }
    // "/tmp/x/.s.PGSQL.5432" or "db.example.org:5432", database "team": for
    // messages, never with the password.
    std::string where() const;

private:
    struct Close {
        void operator()(pg_conn* c) const;
    };
    std::unique_ptr<pg_conn, Close> m_conn;
    std::string m_user;
    std::string m_lastState;
    int m_timeoutSeconds = 0;
};

// Why a server setting cannot be used ("" when it can): not a conninfo or
// URI libpq parses, or one that holds a password, which belongs in the
// keychain, PGPASSWORD or ~/.pgpass, never in a settings file.
std::string conninfoProblem(const std::string& conninfo);

// SQLSTATE 42501: the role may not do what it asked.
inline constexpr const char* kInsufficientPrivilege = "42501";
// SQLSTATE 55P03 (lock_timeout) and 57014 (statement_timeout, which may
// fire first while a lock is awaited).
inline constexpr const char* kLockNotAvailable = "55P03";
inline constexpr const char* kQueryCanceled = "57014";

} // namespace relayhud::team
