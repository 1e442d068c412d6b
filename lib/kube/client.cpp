#include "kube/client.h"

#include <cctype>
#include <cstdio>

#include "core/errors.h"
#include "core/log.h"
#include "kube/status_error.h"
#include "kube/watch.h"

namespace trainctl::kube {

namespace {
// A 2xx body that should be JSON; anything else (a proxy's HTML page) is an Error that
// names the request and shows a short excerpt.
nlohmann::json parse_body(const Request& r, const Response& resp) {
  nlohmann::json j = nlohmann::json::parse(resp.body, nullptr, false);
  if (j.is_discarded()) {
    throw Error("the server answered " + r.method + " " + r.path + " with HTTP " + std::to_string(resp.status) +
                " but the body is not JSON: \"" + sanitised_excerpt(resp.body) + "\"");
  }
  return j;
}
}  // namespace

nlohmann::json Client::get_json(const std::string& path) {
  Request r;
  r.path = path;
  return parse_body(r, send(r));
}

nlohmann::json Client::post_json(const std::string& path, const nlohmann::json& body) {
  Request r;
  r.method = "POST";
  r.path = path;
  r.body = body.dump();
  return parse_body(r, send(r));
}

nlohmann::json Client::delete_json(const std::string& path, const nlohmann::json& body) {
  Request r;
  r.method = "DELETE";
  r.path = path;
  if (!body.is_null()) r.body = body.dump();
  auto resp = send(r);
  return resp.body.empty() ? nlohmann::json() : parse_body(r, resp);
}

std::string Client::list_paged(const std::string& path, const std::function<void(nlohmann::json&&)>& on_item,
                               int page_size, const std::function<void()>& on_restart) {
  const char sep = path.find('?') == std::string::npos ? '?' : '&';
  for (int attempt = 0;; ++attempt) {
    std::string cont;
    std::string rv;
    bool expired = false;
    do {
      std::string p = path + sep + "limit=" + std::to_string(page_size);
      if (!cont.empty()) p += "&continue=" + url_encode(cont);
      nlohmann::json page;
      try {
        page = get_json(p);
      } catch (const ApiError& e) {
        // A continue token older than the server's last compaction (410 Expired): start
        // again from the first page, once, as client-go's pager does.
        if (cont.empty() || !is_expired(e)) throw;
        if (attempt > 0)
          throw Error("the server expired the list " + path +
                      " twice while it was read page by page (410 Expired); try again");
        log::debug("GET {}: the continue token expired (410 {}); listing again from the start", p, e.reason());
        expired = true;
        break;
      }
      if (page.contains("items") && page["items"].is_array()) {
        for (auto& item : page["items"]) on_item(std::move(item));
      }
      const auto& meta = page.value("metadata", nlohmann::json::object());
      cont = meta.value("continue", "");
      rv = meta.value("resourceVersion", "");
    } while (!cont.empty());
    if (!expired) return rv;
    if (on_restart) on_restart();
  }
}

std::string url_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace trainctl::kube
