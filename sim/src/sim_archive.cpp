#include "sim_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <stdexcept>

namespace relayhud::sim {
namespace {

la_ssize_t appendToString(archive*, void* client, const void* buffer, size_t length)
{
    static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
    return static_cast<la_ssize_t>(length);
}

void check(archive* a, int status)
{
    // Writing to memory only fails on a programming error (bad option names).
    if (status < ARCHIVE_WARN)
        throw std::logic_error(std::string("libarchive: ") + archive_error_string(a));
}

void addEntry(archive* a, const std::string& path, const std::string& content, EpochSeconds mtime)
{
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(),
                                                                        archive_entry_free);
    archive_entry_set_pathname(entry.get(), path.c_str());
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(content.size()));
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_mtime(entry.get(), static_cast<time_t>(mtime), 0);
    check(a, archive_write_header(a, entry.get()));
    if (archive_write_data(a, content.data(), content.size()) < 0)
        check(a, ARCHIVE_FATAL);
}

std::string write(const ArchiveEntries& entries, EpochSeconds mtime, bool zip)
{
    std::string out;
    std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(),
                                                              archive_write_free);
    if (zip) {
        check(a.get(), archive_write_set_format_zip(a.get()));
    } else {
        check(a.get(), archive_write_set_format_pax_restricted(a.get()));
        check(a.get(), archive_write_add_filter_gzip(a.get()));
        check(a.get(), archive_write_set_options(a.get(), "gzip:!timestamp"));
    }
    // Unblocked output: the archive ends where its data ends.
    check(a.get(), archive_write_set_bytes_per_block(a.get(), 0));
    check(a.get(), archive_write_open(a.get(), &out, nullptr, appendToString, nullptr));
    for (const auto& [path, content] : entries)
        addEntry(a.get(), path, content, mtime);
    check(a.get(), archive_write_close(a.get()));
    return out;
}

} // namespace

std::string writeZip(const ArchiveEntries& entries, EpochSeconds mtime)
{
    return write(entries, mtime, true);
}

std::string writeTarGz(const ArchiveEntries& entries, EpochSeconds mtime)
{
    return write(entries, mtime, false);
}

} // namespace relayhud::sim
