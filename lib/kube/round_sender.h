// The thread of a paged read (list_reads.h stream_all) that sends the next round of requests
// while the calling thread digests this one. One per paged read, started with the first
// round it sends and ended with the read: a read of 100,000 jobs in pages of 500 sends about
// 200 rounds, each of which used to start a thread of its own. The client is used by one
// thread at a time: the calling thread sends the first round itself, then only this one.
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "kube/client.h"

namespace trainctl::kube {

class RoundSender {
 public:
  explicit RoundSender(Client& client) : m_client(client) {}
  RoundSender(const RoundSender&) = delete;
  RoundSender& operator=(const RoundSender&) = delete;
  // Waits for a round still on its way, then ends the thread.
  ~RoundSender();

  // Sends `requests` (Client::send_all) on the thread; the round sent before must have been
  // taken.
  void send(std::vector<Request> requests);
  // The answers of the round sent last, once they are all in; rethrows what send_all threw.
  std::vector<Client::Result> take();

 private:
  void run();

  Client& m_client;
  std::mutex m_mu;
  std::condition_variable m_cv;
  std::optional<std::vector<Request>> m_round;          // to send
  std::optional<std::vector<Client::Result>> m_answers;  // of the round sent
  std::exception_ptr m_error;                           // what send_all threw
  bool m_busy = false;                                  // a round is sent and not taken
  bool m_stop = false;
  std::thread m_thread;  // started by the first send()
};

}  // namespace trainctl::kube
