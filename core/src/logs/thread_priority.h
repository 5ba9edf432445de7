#pragma once
// Work nobody waits for (the landmark scan of a big log) runs at a lower
// scheduling priority, so on a machine with few cores it yields to the GUI
// thread that paints the log while it runs.
namespace relayhud::logs {

// Lowers the calling thread's priority once (nice +10 on Linux; nothing
// elsewhere). Cheap to call again on the same thread.
void lowerThreadPriority();

} // namespace relayhud::logs
