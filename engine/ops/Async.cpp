#include "ops/Async.h"

namespace pb::ops {

Async::Async(QString dbPath, int maxThreads) : m_dbPath(std::move(dbPath)) {
    m_pool.setMaxThreadCount(maxThreads);
}

Async::~Async() {
    m_pool.waitForDone();
}

} // namespace pb::ops
