#pragma once
// The threads that open, follow and copy from log files: not Qt's global pool.
// Qt's own painting waits on the global pool (QImage's smooth scaling and
// format conversions split their work over it and block until it is done),
// so a file that hangs a read, a slow network mount or a huge .gz being
// inflated there would freeze the window. File work waits here instead, where
// a stuck thread stalls only other file work.
class QThreadPool;

namespace relayhud::ui {

QThreadPool* fileWorkPool();

} // namespace relayhud::ui
