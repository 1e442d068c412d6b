// The task queue of kubesim's HTTP server: one thread per open connection, as Go's net/http
// serves kube-apiserver (Server.Serve starts a goroutine per accepted connection,
// net/http/server.go).
//
// cpp-httplib 0.11 hands each accepted connection to its TaskQueue (Server::listen_internal)
// and the task keeps its thread for the connection's whole life: every keep-alive request
// and, for a watch or a followed log, the whole stream (the chunked content provider runs on
// that thread). Its ThreadPool has a fixed number of threads, so that N open watches starved
// every request after them (330 watches left new GETs waiting for their 20 s timeout).
// kube-apiserver does not count long-running requests (watch, pods/log follow) against its
// in-flight limits (apiserver pkg/server/filters/maxinflight.go, longRunningRequestCheck), and
// a thread here is only the place a connection waits: this pool starts a thread whenever none
// is idle, keeps up to `idle` threads waiting for the next connection, and lets the others
// end.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>

namespace kubesim {

class ConnectionPool : public httplib::TaskQueue {
 public:
  // `idle` threads are started at once and kept waiting between connections.
  explicit ConnectionPool(size_t idle);
  ~ConnectionPool() override;

  void enqueue(std::function<void()> fn) override;
  // Waits for every connection to end (httplib closes the listening socket first).
  void shutdown() override;

  // Threads now serving a connection and threads started so far (tests, logs).
  size_t busy() const;
  size_t threads() const;

 private:
  void start_thread();  // with m_mu held
  void work(std::list<std::thread>::iterator self);
  void reap();  // joins threads that ended, with m_mu held

  const size_t m_idle_max;
  mutable std::mutex m_mu;
  std::condition_variable m_cv;
  std::deque<std::function<void()>> m_jobs;
  std::list<std::thread> m_threads;
  std::list<std::thread> m_ended;  // to be joined
  size_t m_idle = 0;
  size_t m_busy = 0;
  bool m_shutdown = false;
};

}  // namespace kubesim
