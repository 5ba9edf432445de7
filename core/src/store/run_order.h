#pragma once
// isNewerRun (model/types.h) in SQL, for the queries that pick the run a
// view shows: one rule, the same in C++ and SQL (a test holds them equal).
#include <string>

namespace relayhud::store {

// "check_run `newer` is newer than check_run `run`" (aliases of one SHA and job).
inline std::string newerRunSql(const std::string& newer, const std::string& run)
{
    const std::string ns = "coalesce(" + newer + ".started_at, 0)";
    const std::string rs = "coalesce(" + run + ".started_at, 0)";
    return "(" + newer + ".run_attempt > " + run + ".run_attempt OR (" + newer
           + ".run_attempt = " + run + ".run_attempt AND (" + ns + " > " + rs + " OR (" + ns + " = "
           + rs + " AND " + newer + ".id > " + run + ".id))))";
}

// ORDER BY terms, newest run first.
inline std::string newestRunFirstSql(const std::string& run)
{
    return run + ".run_attempt DESC, coalesce(" + run + ".started_at, 0) DESC, " + run + ".id DESC";
}

// ORDER BY terms, oldest run first (the newest last).
inline std::string oldestRunFirstSql(const std::string& run)
{
    return run + ".run_attempt, coalesce(" + run + ".started_at, 0), " + run + ".id";
}

} // namespace relayhud::store
