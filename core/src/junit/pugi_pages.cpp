// pugixml builds a report's DOM in pages of 32 KiB it asks malloc for: 40 to
// 60 MB for 100,000 test cases, first touched one 4 KiB page at a time. On
// a VM each such fault costs about as much as parsing the bytes it holds, so
// the DOM is kept in 16 MiB chunks the kernel may back with 2 MiB pages
// (MADV_HUGEPAGE; the machine's transparent_hugepage setting decides). A
// chunk is free again when its last block is freed, which is when the
// document it served is destroyed; up to four free chunks are kept for the
// next document, as malloc keeps freed memory (a sync parses reports back to
// back, and the kernel zeroing fresh pages cost a third of a parse), and the
// rest go back to the system.
#include "junit/pugi_pages.h"

#include "relayhud/util/huge_pages.h"

#include <pugixml.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define RELAYHUD_PUGI_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELAYHUD_PUGI_MALLOC 1
#endif
#endif

namespace relayhud::junit {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
constexpr std::size_t kAlign = 16;      // what malloc promises pugixml
constexpr std::size_t kHeader = kAlign; // each block's chunk, before it

constexpr std::size_t roundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

struct Chunk {
    HugePages pages;      // holds this Chunk at its start
    char* next = nullptr; // the next free byte
    char* end = nullptr;
    std::size_t live = 0; // blocks not yet freed
};

constexpr std::size_t kKeptChunks = 4; // 64 MiB

std::mutex g_mutex;         // guards what follows
Chunk* g_current = nullptr; // where small blocks come from
Chunk* g_kept[kKeptChunks] = {};
std::size_t g_keptCount = 0;

// A chunk of at least `usable` bytes after its own header, aligned to a huge
// page; null when the system has no memory left.
Chunk* mapChunk(std::size_t usable)
{
    HugePages pages(roundUp(roundUp(sizeof(Chunk), kAlign) + usable, kHugePage));
    if (!pages)
        return nullptr;
    char* start = pages.data();
    const std::size_t bytes = pages.size();
    auto* chunk = new (start) Chunk;
    chunk->next = start + roundUp(sizeof(Chunk), kAlign);
    chunk->end = start + bytes;
    chunk->pages = std::move(pages);
    return chunk;
}

void unmapChunk(Chunk* chunk)
{
    HugePages pages = std::move(chunk->pages); // unmapped as it goes
    chunk->~Chunk();
}

// A standard chunk no block uses any more: kept for reuse while there is room.
void release(Chunk* chunk)
{
    const bool standard =
        chunk->pages.size() == roundUp(roundUp(sizeof(Chunk), kAlign) + kChunkBytes, kHugePage);
    if (standard && g_keptCount < kKeptChunks) {
        chunk->next = reinterpret_cast<char*>(chunk) + roundUp(sizeof(Chunk), kAlign);
        g_kept[g_keptCount++] = chunk;
        return;
    }
    unmapChunk(chunk);
}

Chunk* standardChunk()
{
    if (g_keptCount > 0)
        return g_kept[--g_keptCount];
    return mapChunk(kChunkBytes);
}

char* carve(Chunk* chunk, std::size_t size)
{
    char* block = chunk->next;
    chunk->next += kHeader + size;
    ++chunk->live;
    *reinterpret_cast<Chunk**>(block) = chunk;
    return block + kHeader;
}

void* allocatePage(std::size_t size)
{
    size = roundUp(size == 0 ? 1 : size, kAlign);
    const std::lock_guard lock(g_mutex);
    if (kHeader + size > kChunkBytes / 4) { // a large text: a chunk of its own
        Chunk* own = mapChunk(kHeader + size);
        return own ? carve(own, size) : nullptr;
    }
    if (g_current == nullptr
        || static_cast<std::size_t>(g_current->end - g_current->next) < kHeader + size) {
        Chunk* retired = g_current;
        g_current = standardChunk();
        if (retired != nullptr && retired->live == 0)
            release(retired);
        if (g_current == nullptr)
            return nullptr;
    }
    return carve(g_current, size);
}

void freePage(void* block)
{
    if (block == nullptr)
        return;
    const std::lock_guard lock(g_mutex);
    Chunk* chunk = *reinterpret_cast<Chunk**>(static_cast<char*>(block) - kHeader);
    if (--chunk->live > 0)
        return;
    if (chunk == g_current)
        g_current = nullptr;
    release(chunk);
}

} // namespace

void usePugixmlPages()
{
#ifndef RELAYHUD_PUGI_MALLOC
    pugi::set_memory_management_functions(allocatePage, freePage);
#endif
}

} // namespace relayhud::junit
