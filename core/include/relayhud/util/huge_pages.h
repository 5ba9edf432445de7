#pragma once
// Anonymous memory for large buffers, in transparent huge pages where the
// kernel allows them. On a VM a 4 KiB page fault costs about as much as
// parsing the page it brings; a 2 MiB page brings 512 of them at once.
#include <cstddef>

namespace relayhud {

class HugePages {
public:
    HugePages() = default;
    // At least `bytes` of zeroed, writable memory; from 2 MiB on, aligned to a
    // huge page and advised MADV_HUGEPAGE (the machine's transparent_hugepage
    // setting decides). Empty when the system has no memory left.
    explicit HugePages(std::size_t bytes);
    HugePages(HugePages&& other) noexcept;
    HugePages& operator=(HugePages&& other) noexcept;
    HugePages(const HugePages&) = delete;
    HugePages& operator=(const HugePages&) = delete;
    ~HugePages();

    char* data() const { return m_data; } // null when empty
    std::size_t size() const { return m_size; }
    explicit operator bool() const { return m_data != nullptr; }

private:
    void* m_mapping = nullptr; // what mmap gave: m_data, and room to align it
    std::size_t m_mapped = 0;
    char* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace relayhud
