#pragma once
// Zips, tarballs and gzip files built in memory with libarchive's writer, for
// the import tests (the writer stores names and types as given).
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <string>

namespace relayhud::test {

class Packer {
public:
    enum class Kind { Zip, StoredZip, Tar, TarGz, Gzip };
    explicit Packer(Kind kind) : m_archive(archive_write_new())
    {
        if (kind == Kind::Zip || kind == Kind::StoredZip)
            archive_write_set_format_zip(m_archive);
        if (kind == Kind::StoredZip) // no deflate: fast to nest thousands deep
            archive_write_set_format_option(m_archive, "zip", "compression", "store");
        // No zeros padding the last block, as gzip and zip tools write them
        // (a gzip's trailer is then its last 8 bytes).
        if (kind == Kind::StoredZip || kind == Kind::Gzip)
            archive_write_set_bytes_in_last_block(m_archive, 1);
        if (kind == Kind::Gzip)
            archive_write_set_format_raw(m_archive);
        if (kind == Kind::Tar || kind == Kind::TarGz)
            archive_write_set_format_pax_restricted(m_archive);
        if (kind == Kind::TarGz || kind == Kind::Gzip)
            archive_write_add_filter_gzip(m_archive);
        archive_write_open(m_archive, this, nullptr, &Packer::append, nullptr);
    }
    ~Packer() { archive_write_free(m_archive); }
    Packer(const Packer&) = delete;
    Packer& operator=(const Packer&) = delete;

    Packer& add(const std::string& path, const std::string& bytes, unsigned type = AE_IFREG)
    {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, path.c_str());
        archive_entry_set_filetype(entry, type);
        archive_entry_set_perm(entry, 0644);
        archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
        if (type == AE_IFLNK)
            archive_entry_set_symlink(entry, "/etc/passwd");
        EXPECT_EQ(archive_write_header(m_archive, entry), ARCHIVE_OK) << path;
        if (!bytes.empty())
            archive_write_data(m_archive, bytes.data(), bytes.size());
        archive_entry_free(entry);
        return *this;
    }
    std::string finish()
    {
        EXPECT_EQ(archive_write_close(m_archive), ARCHIVE_OK);
        return std::move(m_bytes);
    }

private:
    static la_ssize_t append(archive*, void* self, const void* data, size_t size)
    {
        static_cast<Packer*>(self)->m_bytes.append(static_cast<const char*>(data), size);
        return static_cast<la_ssize_t>(size);
    }
    archive* m_archive;
    std::string m_bytes;
};

} // namespace relayhud::test
