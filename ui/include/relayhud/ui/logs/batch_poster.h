#pragma once
// Carries what engine threads report to a QObject's thread, merged into one
// batch: however fast a search streams matches, the GUI thread gets at most
// one queued call per turn of its event loop, with everything since the last.
//
//   auto poster = BatchPoster<Matches>::create(this, [this](Matches b) { take(b); });
//   engine.start([poster](const Update& u) { poster->add([&](Matches& b) { ... }); });
//
// The poster is shared with the engine's callback, so a callback running
// after the receiver is gone merges into a batch nobody reads; Qt drops the
// queued call of a deleted receiver.
#include <QMetaObject>
#include <QObject>

#include <functional>
#include <memory>
#include <mutex>

namespace relayhud::ui {

template <class Batch>
class BatchPoster : public std::enable_shared_from_this<BatchPoster<Batch>> {
public:
    using Deliver = std::function<void(Batch)>;

    static std::shared_ptr<BatchPoster> create(QObject* receiver, Deliver deliver)
    {
        return std::shared_ptr<BatchPoster>(new BatchPoster(receiver, std::move(deliver)));
    }

    // Any thread: merge into the pending batch; post a delivery unless one is
    // already on its way.
    template <class Merge>
    void add(Merge&& merge)
    {
        {
            std::lock_guard lock(m_mutex);
            merge(m_pending);
            if (m_posted)
                return;
            m_posted = true;
        }
        auto self = this->shared_from_this();
        QMetaObject::invokeMethod(
            m_receiver, [self] { self->deliver(); }, Qt::QueuedConnection);
    }

    // The receiver's thread: deliver what is pending now, without waiting for
    // the queued call (tests, a search that just finished).
    void flush() { deliver(); }

private:
    BatchPoster(QObject* receiver, Deliver deliver)
        : m_receiver(receiver), m_deliver(std::move(deliver))
    {
    }

    void deliver()
    {
        Batch batch;
        {
            std::lock_guard lock(m_mutex);
            if (!m_posted)
                return;
            std::swap(batch, m_pending);
            m_posted = false;
        }
        m_deliver(std::move(batch));
    }

    QObject* m_receiver;
    Deliver m_deliver;
    std::mutex m_mutex;
    Batch m_pending{};
    bool m_posted = false;
};

} // namespace relayhud::ui
