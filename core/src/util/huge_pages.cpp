#include "relayhud/util/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <utility>

namespace relayhud {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

} // namespace

HugePages::HugePages(std::size_t bytes)
{
    if (bytes == 0)
        return;
    const bool huge = bytes >= kHugePage;
    const std::size_t rounded = huge ? (bytes + kHugePage - 1) / kHugePage * kHugePage : bytes;
    const std::size_t mapped = huge ? rounded + kHugePage : rounded; // room to align
    void* mapping =
        ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED)
        return;
    m_mapping = mapping;
    m_mapped = mapped;
    m_data = static_cast<char*>(mapping);
    m_size = rounded;
    if (huge) {
        const auto address = reinterpret_cast<std::uintptr_t>(mapping);
        m_data += (kHugePage - address % kHugePage) % kHugePage;
        (void)::madvise(m_data, rounded, MADV_HUGEPAGE); // advice: the kernel may decline
    }
}

HugePages::HugePages(HugePages&& other) noexcept
    : m_mapping(std::exchange(other.m_mapping, nullptr)),
      m_mapped(std::exchange(other.m_mapped, 0)), m_data(std::exchange(other.m_data, nullptr)),
      m_size(std::exchange(other.m_size, 0))
{
}

HugePages& HugePages::operator=(HugePages&& other) noexcept
{
    if (this != &other) {
        HugePages old(std::move(*this));
        m_mapping = std::exchange(other.m_mapping, nullptr);
        m_mapped = std::exchange(other.m_mapped, 0);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

HugePages::~HugePages()
{
    if (m_mapping != nullptr)
        ::munmap(m_mapping, m_mapped);
}

} // namespace relayhud
