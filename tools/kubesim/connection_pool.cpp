#include "kubesim/connection_pool.h"

namespace kubesim {

ConnectionPool::ConnectionPool(size_t idle) : m_idle_max(idle) {
  std::lock_guard lock(m_mu);
  for (size_t i = 0; i < idle; ++i) start_thread();
}

ConnectionPool::~ConnectionPool() { shutdown(); }

void ConnectionPool::start_thread() {
  m_threads.emplace_front();
  auto self = m_threads.begin();
  ++m_idle;
  *self = std::thread([this, self] { work(self); });
}

void ConnectionPool::enqueue(std::function<void()> fn) {
  std::lock_guard lock(m_mu);
  reap();
  m_jobs.push_back(std::move(fn));
  // Every queued job has an idle thread to take it: a connection never waits for another.
  if (m_idle < m_jobs.size()) start_thread();
  m_cv.notify_one();
}

void ConnectionPool::work(std::list<std::thread>::iterator self) {
  std::unique_lock lock(m_mu);
  for (;;) {
    m_cv.wait(lock, [&] { return !m_jobs.empty() || m_shutdown; });
    if (m_jobs.empty()) break;  // shutting down, nothing left to serve
    std::function<void()> fn = std::move(m_jobs.front());
    m_jobs.pop_front();
    --m_idle;
    ++m_busy;
    lock.unlock();
    fn();
    fn = nullptr;
    lock.lock();
    --m_busy;
    if (m_idle >= m_idle_max && !m_shutdown) break;  // enough threads wait already
    ++m_idle;
  }
  if (m_shutdown) return;  // shutdown() joins it
  m_ended.splice(m_ended.end(), m_threads, self);
}

void ConnectionPool::reap() {
  for (auto& t : m_ended) t.join();  // each has left work() or is about to
  m_ended.clear();
}

void ConnectionPool::shutdown() {
  std::list<std::thread> all;
  {
    std::lock_guard lock(m_mu);
    if (m_shutdown && m_threads.empty() && m_ended.empty()) return;
    m_shutdown = true;
    all.splice(all.end(), m_threads);
    all.splice(all.end(), m_ended);
  }
  m_cv.notify_all();
  for (auto& t : all)
    if (t.joinable()) t.join();
}

size_t ConnectionPool::busy() const {
  std::lock_guard lock(m_mu);
  return m_busy;
}

size_t ConnectionPool::threads() const {
  std::lock_guard lock(m_mu);
  return m_threads.size();
}

}  // namespace kubesim
