#include "kubesim/watch.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace kubesim {

void StreamQueue::push(std::string line) {
  {
    std::lock_guard lock(mu);
    lines.push_back(std::move(line));
  }
  cv.notify_all();
}

void StreamQueue::close() {
  {
    std::lock_guard lock(mu);
    closed = true;
  }
  cv.notify_all();
}

std::deque<std::string> StreamQueue::take(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu);
  cv.wait_for(lock, timeout, [&] { return !lines.empty() || closed; });
  std::deque<std::string> out;
  out.swap(lines);
  return out;
}

int request_socket(const httplib::Request& req) {
  if (req.ssl) return SSL_get_fd(req.ssl);
  // plain HTTP: find our socket whose peer is the request's remote address and port
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int found = -1;
  while (dirent* e = readdir(d)) {
    int fd = std::atoi(e->d_name);
    if (fd <= 2) continue;
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) continue;
    char host[INET6_ADDRSTRLEN] = {0};
    int port = -1;
    if (ss.ss_family == AF_INET) {
      auto* a = reinterpret_cast<sockaddr_in*>(&ss);
      inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
      port = ntohs(a->sin_port);
    } else if (ss.ss_family == AF_INET6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
      inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
      port = ntohs(a->sin6_port);
    } else {
      continue;
    }
    sockaddr_storage ls{};
    socklen_t llen = sizeof ls;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&ls), &llen) != 0) continue;
    int lport = ls.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&ls)->sin_port)
                                        : ntohs(reinterpret_cast<sockaddr_in6*>(&ls)->sin6_port);
    if (port == req.remote_port && req.remote_addr == host && lport == req.local_port) {
      found = fd;
      break;
    }
  }
  closedir(d);
  return found;
}

bool peer_closed(int fd) {
  if (fd < 0) return false;
  char c;
  ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n == 0) return true;
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return true;
  return false;
}

void disable_compression(const httplib::Request& req) {
  const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
}

void reset_connection(int fd) {
  if (fd < 0) return;
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  shutdown(fd, SHUT_RDWR);
}

}  // namespace kubesim
