#include "jobs/parallel_list.h"

#include "core/errors.h"
#include "core/log.h"

namespace trainctl::jobs {

namespace {
std::string page_path(const std::string& path, int page_size, const std::string& cont) {
  std::string p =
      path + (path.find('?') == std::string::npos ? '?' : '&') + "limit=" + std::to_string(page_size);
  if (!cont.empty()) p += "&continue=" + kube::url_encode(cont);
  return p;
}

// Takes the items of one page; returns the continue token.
std::string take_page(nlohmann::json page, std::vector<nlohmann::json>& items) {
  auto& list = page["items"];
  if (list.is_array())
    for (auto& item : list) items.push_back(std::move(item));
  const auto& meta = page.value("metadata", nlohmann::json::object());
  return meta.value("continue", "");
}
}  // namespace

std::vector<ReadResult> read_all(kube::Client& client, const std::vector<Read>& reads, int page_size) {
  std::vector<kube::Request> requests;
  for (const auto& r : reads) {
    kube::Request req;
    req.path = r.list ? page_path(r.path, page_size, "") : r.path;
    requests.push_back(std::move(req));
  }
  auto results = client.send_all(requests);
  if (results.size() != reads.size())
    throw Error("the client answered " + std::to_string(results.size()) + " of " +
                std::to_string(reads.size()) + " requests");
  std::vector<ReadResult> out(reads.size());
  for (size_t i = 0; i < reads.size(); ++i) {
    auto& res = results[i];
    if (res.error) {
      try {
        std::rethrow_exception(res.error);
      } catch (const ApiError& e) {
        if (!e.is_not_found()) throw;
        log::debug("{}: not found ({})", reads[i].path, e.what());
        out[i].not_found = true;
        continue;
      }
    }
    auto body = nlohmann::json::parse(res.response.body);
    if (!reads[i].list) {
      out[i].object = std::move(body);
      continue;
    }
    std::string cont = take_page(std::move(body), out[i].items);
    while (!cont.empty())
      cont = take_page(client.get_json(page_path(reads[i].path, page_size, cont)), out[i].items);
  }
  return out;
}

}  // namespace trainctl::jobs
