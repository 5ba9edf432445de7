#pragma once
// pugixml's memory in transparent huge pages (see pugi_pages.cpp).

namespace relayhud::junit {

// Points pugixml's allocation functions at huge-page chunks; no-op under
// AddressSanitizer (which must see pugixml's blocks as malloc's). Called once,
// from a static initializer, before any document exists: a block must be
// freed by the functions that allocated it.
void usePugixmlPages();

} // namespace relayhud::junit
