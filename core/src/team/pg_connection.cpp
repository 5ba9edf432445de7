#include "team/pg_connection.h"

#include <libpq-fe.h>

#include <string_view>

namespace relayhud::team {
namespace {

// libpq's text on one line: its hints come after "\n\t"; each run of line
// breaks and the indent after them becomes one space.
std::string trimmedMessage(const char* text)
{
    std::string message;
    bool pendingSpace = false;
    for (const char* p = text ? text : ""; *p; ++p) {
        const bool blank = *p == '\n' || *p == '\r' || *p == '\t';
        if (blank) {
            pendingSpace = !message.empty();
            continue;
        }
        if (pendingSpace && message.back() != ' ')
            message += ' ';
        pendingSpace = false;
        message += *p;
    }
    while (!message.empty() && message.back() == ' ')
        message.pop_back();
    return message;
}

// The server's notices (a WARNING as it shuts down) are not printed on the
// user's terminal: what matters arrives as an error of the call it broke.
void ignoreNotice(void*, const char*) {}

} // namespace

void PgResult::Free::operator()(pg_result* r) const { PQclear(r); }

int PgResult::rows() const { return PQntuples(m_result.get()); }

std::string PgResult::text(int row, int column) const
{
    // Out of range (a server that answered fewer rows or columns than asked)
    // is "", never a read past libpq's result.
    if (row < 0 || row >= PQntuples(m_result.get()) || column < 0
        || column >= PQnfields(m_result.get()))
        return {};
    return PQgetvalue(m_result.get(), row, column);
}

bool PgResult::isNull(int row, int column) const
{
    return PQgetisnull(m_result.get(), row, column) != 0;
}

void PgConnection::Close::operator()(pg_conn* c) const { PQfinish(c); }

Result<PgConnection> PgConnection::open(const std::string& conninfo, int timeoutSeconds,
                                        const std::string& password)
{
    // expand_dbname: `dbname` carries the whole conninfo or URI. libpq takes
    // the keywords in order and keeps the last value of each (libpq docs,
    // PQconnectdbParams), so the user's conninfo comes last: what it says
    // wins, and ours only fill what it left out.
    const std::string timeout = std::to_string(timeoutSeconds);
    std::vector<const char*> keywords{"connect_timeout", "application_name"};
    std::vector<const char*> values{timeout.c_str(), "relayhud"};
    if (!password.empty()) {
        keywords.push_back("password");
        values.push_back(password.c_str());
    }
    keywords.push_back("dbname");
    values.push_back(conninfo.c_str());
    keywords.push_back(nullptr);
    values.push_back(nullptr);
    PgConnection c;
    c.m_conn.reset(PQconnectdbParams(keywords.data(), values.data(), 1));
    if (!c.m_conn)
        return makeError("cannot reach the team server: out of memory");
    if (PQstatus(c.m_conn.get()) != CONNECTION_OK)
        return makeError("cannot reach the team server: "
                         + trimmedMessage(PQerrorMessage(c.m_conn.get())));
    PQsetNoticeProcessor(c.m_conn.get(), ignoreNotice, nullptr);
    c.m_timeoutSeconds = timeoutSeconds;
    const std::string ms = std::to_string(static_cast<long long>(timeoutSeconds) * 1000);
    auto user = c.exec("SELECT session_user, set_config('statement_timeout', $1, false),"
                       " set_config('lock_timeout', $1, false)",
                       {ms});
    if (!user)
        return user.error();
    c.m_user = user->text(0, 0);
    return c;
}

Result<PgResult> PgConnection::exec(const std::string& sql, const std::vector<std::string>& params)
{
    PgResult out;
    if (params.empty()) {
        out.m_result.reset(PQexec(m_conn.get(), sql.c_str()));
    } else {
        std::vector<const char*> values;
        for (const std::string& p : params)
            values.push_back(p.c_str());
        out.m_result.reset(PQexecParams(m_conn.get(), sql.c_str(), static_cast<int>(values.size()),
                                        nullptr, values.data(), nullptr, nullptr, 0));
    }
    const ExecStatusType status =
        out.m_result ? PQresultStatus(out.m_result.get()) : PGRES_FATAL_ERROR;
    m_lastState.clear();
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        return out;
    const char* state =
        out.m_result ? PQresultErrorField(out.m_result.get(), PG_DIAG_SQLSTATE) : nullptr;
    m_lastState = state ? state : "";
    std::string message = trimmedMessage(out.m_result ? PQresultErrorMessage(out.m_result.get())
                                                      : PQerrorMessage(m_conn.get()));
    if (message.empty())
        message = trimmedMessage(PQerrorMessage(m_conn.get()));
    if (state && std::string(state) == kInsufficientPrivilege)
        return makeError("the team server refused role '" + m_user + "': " + message + " (SQLSTATE "
                         + state + "); its owner must GRANT it the rights");
    return makeError("the team server: " + message
                     + (state ? std::string(" (SQLSTATE ") + state + ")" : std::string()));
}

bool PgConnection::ok() const { return m_conn && PQstatus(m_conn.get()) == CONNECTION_OK; }

int PgConnection::socket() const { return m_conn ? PQsocket(m_conn.get()) : -1; }

Result<int> PgConnection::takeNotifications()
{
    if (PQconsumeInput(m_conn.get()) == 0 || PQstatus(m_conn.get()) != CONNECTION_OK)
        return makeError("lost the team server: " + trimmedMessage(PQerrorMessage(m_conn.get())));
    int count = 0;
    while (PGnotify* notify = PQnotifies(m_conn.get())) {
        ++count;
        PQfreemem(notify);
    }
    return count;
}

std::string conninfoProblem(const std::string& conninfo)
{
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
    if (!options) {
        std::string message = error ? trimmedMessage(error) : std::string("out of memory");
        PQfreemem(error);
        return "not a libpq conninfo or URI: " + message;
    }
    std::string problem;
    for (PQconninfoOption* o = options; o->keyword; ++o)
        if (std::string_view(o->keyword) == "password" && o->val && *o->val)
            problem = "the password does not belong in the server setting: give it in the "
                      "password field (kept in the keychain), PGPASSWORD or ~/.pgpass";
    PQconninfoFree(options);
    return problem;
}

std::string PgConnection::where() const
{
    const std::string host = PQhost(m_conn.get()) ? PQhost(m_conn.get()) : "";
    const std::string port = PQport(m_conn.get()) ? PQport(m_conn.get()) : "";
    const std::string db = PQdb(m_conn.get()) ? PQdb(m_conn.get()) : "";
    return (host.starts_with('/') ? host + "/.s.PGSQL." + port : host + ":" + port) + ", database "
           + db;
}

} // namespace relayhud::team
