#pragma once
// A throwaway PostgreSQL for the team-server tests (issue 21): initdb into a
// temporary folder and a server that listens on a Unix socket there only (no
// TCP port, so parallel test processes never meet), stopped and removed with
// the object. initdb refuses root, so as root (CI) both run as `nobody`
// through setpriv, on a folder given to it. The recipe and its timings:
// docs/team-server-notes.md. The bench (relayhud-bench team) uses it too.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace relayhud::testing {

class PgTestServer {
public:
    PgTestServer()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "relayhud-pg-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            return;
        m_dir = pattern;
        const std::string bin = binDir();
        if (bin.empty()) {
            m_error = "pg_config --bindir gave nothing: is libpq-dev installed?";
            return;
        }
        if (::geteuid() == 0) {
            m_as = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
            run("chown nobody:nogroup '" + m_dir + "'");
        }
        m_pgCtl = bin + "/pg_ctl";
        if (!run(m_as + "env HOME='" + m_dir + "' '" + bin + "/initdb' -D '" + m_dir
                 + "/data' -A trust -U relayhud -E UTF8 --locale=C.UTF-8 >'" + m_dir
                 + "/initdb.log' 2>&1")) {
            m_error = "initdb failed: " + lastLines(m_dir + "/initdb.log");
            return;
        }
        if (!start())
            m_error = "pg_ctl start failed: " + lastLines(m_dir + "/server.log");
    }
    ~PgTestServer()
    {
        if (!m_dir.empty()) {
            stop();
            std::error_code ignored;
            std::filesystem::remove_all(m_dir, ignored);
        }
    }
    PgTestServer(const PgTestServer&) = delete;
    PgTestServer& operator=(const PgTestServer&) = delete;

    bool ok() const { return m_error.empty() && !m_dir.empty(); }
    const std::string& error() const { return m_error; }
    std::string conninfo(const std::string& user = "relayhud") const
    {
        return "host=" + m_dir + (m_port ? " port=" + std::to_string(m_port) : std::string())
               + " dbname=postgres user=" + user;
    }

    bool start()
    {
        return run(m_as + "'" + m_pgCtl + "' -D '" + m_dir + "/data' -l '" + m_dir
                   + "/server.log' -o \"-k " + m_dir + " -c listen_addresses=''\" -w start"
                   + " >/dev/null 2>&1");
    }
    bool stop()
    {
        return run(m_as + "'" + m_pgCtl + "' -D '" + m_dir + "/data' -m fast -w stop"
                   + " >/dev/null 2>&1");
    }
    // Restarts the server with TLS on a TCP port of 127.0.0.1 as well: a
    // server certificate for "localhost" signed by a test CA (caFile()),
    // and an unrelated CA beside it (otherCaFile()). False when openssl or
    // a free port cannot be had.
    bool startWithTls()
    {
        const std::string d = m_dir + "/tls";
        const std::string ec = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
        if (!run("mkdir -p '" + d + "' && cd '" + d
                 + "' && printf 'subjectAltName=DNS:localhost\\n'"
                   " > san.ext && openssl req -x509"
                 + ec
                 + " -days 2 -subj /CN=relayhud-test-ca"
                   " -keyout ca.key -out ca.crt && openssl req -x509"
                 + ec
                 + " -days 2"
                   " -subj /CN=someone-else -keyout other.key -out other.crt && openssl req"
                 + ec
                 + " -subj /CN=localhost -keyout server.key -out server.csr && openssl x509 -req"
                   " -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2"
                   " -extfile san.ext -out server.crt && chmod 600 server.key"
                 + (m_as.empty() ? std::string() : " && chown -R nobody:nogroup .")
                 + " >/dev/null 2>&1"))
            return false;
        stop();
        std::random_device random;
        for (int attempt = 0; attempt < 8; ++attempt) {
            m_port = 20000 + static_cast<int>(random() % 40000);
            if (run(m_as + "'" + m_pgCtl + "' -D '" + m_dir + "/data' -l '" + m_dir
                    + "/server.log' -o \"-k " + m_dir + " -c listen_addresses=127.0.0.1 -p "
                    + std::to_string(m_port) + " -c ssl=on -c ssl_cert_file=" + d
                    + "/server.crt -c ssl_key_file=" + d + "/server.key\" -w start"
                    + " >/dev/null 2>&1"))
                return true;
        }
        m_port = 0;
        return false;
    }
    std::string caFile() const { return m_dir + "/tls/ca.crt"; }
    std::string otherCaFile() const { return m_dir + "/tls/other.crt"; }
    // Over TCP to `host` (after startWithTls), with these extra keywords.
    std::string tcpConninfo(const std::string& host, const std::string& extra) const
    {
        return "host=" + host + " port=" + std::to_string(m_port)
               + " dbname=postgres user=relayhud " + extra;
    }
    // As a crash would: no shutdown checkpoint, every client cut at once.
    bool kill()
    {
        return run(m_as + "'" + m_pgCtl + "' -D '" + m_dir + "/data' -m immediate -w stop"
                   + " >/dev/null 2>&1");
    }
    // One value of a query as the superuser ("" when it fails).
    std::string query(const std::string& sql) const
    {
        std::string out;
        const std::string command =
            "psql -X -A -t -q '" + conninfo() + "' -c \"" + sql + "\" 2>/dev/null";
        if (std::FILE* p = ::popen(command.c_str(), "r")) {
            char buffer[4096];
            while (std::size_t n = std::fread(buffer, 1, sizeof buffer, p))
                out.append(buffer, n);
            ::pclose(p);
        }
        while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
            out.pop_back();
        return out;
    }
    // From now on every connection needs its password (scram-sha-256), as a
    // real team server does; `password` becomes the superuser's.
    bool requirePasswords(const std::string& password)
    {
        if (!psql("ALTER ROLE relayhud PASSWORD '" + password + "'"))
            return false;
        {
            std::FILE* hba = std::fopen((m_dir + "/data/pg_hba.conf").c_str(), "w");
            if (!hba)
                return false;
            std::fputs("local all all scram-sha-256\n", hba);
            std::fclose(hba);
        }
        return run("PGPASSWORD='" + password + "' psql -q '" + conninfo()
                   + "' -c 'SELECT pg_reload_conf()' >/dev/null 2>&1")
               || run(m_as + "'" + m_pgCtl + "' -D '" + m_dir + "/data' reload >/dev/null 2>&1");
    }
    // Runs SQL as the superuser through psql (setting up roles for a test).
    bool psql(const std::string& sql) const
    {
        return run("psql -q -v ON_ERROR_STOP=1 '" + conninfo() + "' -c \"" + sql
                   + "\" >/dev/null 2>&1");
    }

private:
    static bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

    // The end of a log the folder's removal would take with it: what a
    // failure says, in the failure's own message.
    static std::string lastLines(const std::string& path, std::size_t lines = 6)
    {
        std::ifstream in(path);
        std::vector<std::string> kept;
        for (std::string line; std::getline(in, line);) {
            kept.push_back(line);
            if (kept.size() > lines)
                kept.erase(kept.begin());
        }
        std::string out;
        for (const std::string& line : kept)
            out += "\n  " + line;
        return out.empty() ? "(" + path + " is empty or missing)" : out;
    }

    static std::string binDir()
    {
        std::string out;
        if (std::FILE* p = ::popen("pg_config --bindir 2>/dev/null", "r")) {
            char line[512];
            if (std::fgets(line, sizeof line, p))
                out = line;
            ::pclose(p);
        }
        while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
            out.pop_back();
        return out;
    }

    std::string m_dir;
    std::string m_as;
    std::string m_pgCtl;
    std::string m_error;
    int m_port = 0;
};

} // namespace relayhud::testing
