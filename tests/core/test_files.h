#pragma once
// Files for the tests: read one whole, write one, and a fresh folder per test
// that goes with the object. One copy for every test file (a unity build
// compiles several test files as one, where private copies would collide).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace relayhud::test {

// The bytes of `path`; "" when it cannot be read.
inline std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeFile(const std::filesystem::path& path, std::string_view bytes,
                      std::ios::openmode mode = std::ios::trunc)
{
    std::ofstream out(path, std::ios::binary | mode);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A new folder under the system temp dir, named after the running test
// (relayhud-<suite>-<test>-XXXXXX), removed with everything in it when the
// object goes, even where a test took its rights away.
class TempDir {
public:
    TempDir()
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = "relayhud-";
        if (info)
            name += std::string(info->test_suite_name()) + "-" + info->name() + "-";
        std::replace(name.begin(), name.end(), '/', '_'); // parameterised names
        std::string pattern = (std::filesystem::temp_directory_path() / name).string() + "XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr)
            ADD_FAILURE() << "cannot make a folder like " << pattern;
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }
    // The path of `name` in the folder, as a string (as the readers take it).
    std::string path(const std::string& name) const { return (m_path / name).string(); }
    std::string file(const std::string& name) const { return path(name); }
    // Writes `bytes` to `name` in the folder; returns its path.
    std::string write(const std::string& name, std::string_view bytes) const
    {
        writeFile(m_path / name, bytes);
        return path(name);
    }
    void append(const std::string& name, std::string_view bytes) const
    {
        writeFile(m_path / name, bytes, std::ios::app);
    }
    // Everything under the folder, relative, sorted.
    std::vector<std::string> contents() const
    {
        std::vector<std::string> names;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(m_path))
            names.push_back(std::filesystem::relative(entry.path(), m_path).string());
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    std::filesystem::path m_path;
};

} // namespace relayhud::test
