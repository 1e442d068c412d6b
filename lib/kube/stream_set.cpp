#include "kube/stream_set.h"

#include <map>

namespace trainctl::kube {
namespace {

class SequentialStreamSet final : public StreamSet {
 public:
  explicit SequentialStreamSet(Client& client) : m_client(client) {}

  Id add(const Request& request, BlockHandler on_block) override {
    m_streams.emplace(m_next, Stream{request, std::move(on_block)});
    return m_next++;
  }
  void remove(Id id) override { m_streams.erase(id); }
  size_t size() const override { return m_streams.size(); }

  std::vector<Ended> run(std::chrono::milliseconds) override {
    std::vector<Ended> ended;
    auto streams = std::move(m_streams);
    m_streams.clear();
    for (auto& [id, s] : streams) {
      Ended e{id, nullptr};
      try {
        m_client.stream_blocks(s.request, s.on_block);
      } catch (...) {
        e.error = std::current_exception();
      }
      ended.push_back(e);
    }
    return ended;
  }

 private:
  struct Stream {
    Request request;
    BlockHandler on_block;
  };
  Client& m_client;
  std::map<Id, Stream> m_streams;
  Id m_next = 1;
};

}  // namespace

std::unique_ptr<StreamSet> sequential_stream_set(Client& client) {
  return std::make_unique<SequentialStreamSet>(client);
}

std::unique_ptr<StreamSet> Client::stream_set() { return sequential_stream_set(*this); }

}  // namespace trainctl::kube
