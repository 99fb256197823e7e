#include "ops/Async.h"

#include <atomic>

namespace pb::ops {

namespace {
std::atomic<quint64> g_nextOrigin{1};
} // namespace

Async::Async(QString dbPath, int maxThreads) : m_dbPath(std::move(dbPath)), m_origin(g_nextOrigin++) {
    m_pool.setMaxThreadCount(maxThreads);
}

Async::~Async() {
    m_pool.waitForDone();
}

} // namespace pb::ops
