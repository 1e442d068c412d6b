#include "kube/round_sender.h"

#include <utility>

#include "core/errors.h"

namespace trainctl::kube {

RoundSender::~RoundSender() {
  if (!m_thread.joinable()) return;
  {
    std::lock_guard lock(m_mu);
    m_stop = true;
  }
  m_cv.notify_all();
  m_thread.join();  // after the round on its way: run() sends it before it looks at m_stop
}

void RoundSender::send(std::vector<Request> requests) {
  {
    std::lock_guard lock(m_mu);
    if (m_busy) throw Error("a round of requests was sent before the last one was taken");
    m_busy = true;
    m_round = std::move(requests);
    m_answers.reset();
    m_error = nullptr;
  }
  if (!m_thread.joinable())
    m_thread = std::thread([this] { run(); });
  else
    m_cv.notify_all();
}

std::vector<Client::Result> RoundSender::take() {
  std::unique_lock lock(m_mu);
  m_cv.wait(lock, [this] { return !m_busy || m_answers || m_error; });
  if (!m_busy) throw Error("no round of requests was sent to take");
  m_busy = false;
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
  auto answers = std::move(*m_answers);
  m_answers.reset();
  return answers;
}

void RoundSender::run() {
  std::unique_lock lock(m_mu);
  for (;;) {
    m_cv.wait(lock, [this] { return m_round || m_stop; });
    if (!m_round) return;  // stopped, nothing left to send
    std::vector<Request> round = std::move(*m_round);
    m_round.reset();
    lock.unlock();
    std::optional<std::vector<Client::Result>> answers;
    std::exception_ptr error;
    try {
      answers = m_client.send_all(round);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    m_answers = std::move(answers);
    m_error = error;
    m_cv.notify_all();
  }
}

}  // namespace trainctl::kube
