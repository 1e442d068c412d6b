#include "kubesim/request_body.h"

#include <string>

namespace kubesim {

StatusError request_entity_too_large(size_t limit) {
  return StatusError(413, "RequestEntityTooLarge", "Request entity too large: limit is " + std::to_string(limit));
}

httplib::Server::HandlerWithContentReader with_limited_body(
    size_t limit, httplib::Server::Handler next,
    std::function<void(const httplib::Request&, httplib::Response&, const StatusError&)> on_error) {
  return [limit, next = std::move(next), on_error = std::move(on_error)](
             const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    std::string body;
    size_t total = 0;
    const bool multipart = req.is_multipart_form_data();
    auto keep = [&](const char* data, size_t n) {
      total += n;
      if (total > limit) {
        body.clear();  // the rest is read and dropped
        body.shrink_to_fit();
      } else if (!multipart) {
        body.append(data, n);
      }
      return true;
    };
    // A multipart body (no Kubernetes client sends one) is read and dropped: the handler then
    // finds no object in it.
    const bool read = multipart ? reader([](const httplib::MultipartFormData&) { return true; }, keep) : reader(keep);
    const bool too_large = total > limit;
    if (too_large || (!read && res.status == 413)) {
      res.status = -1;
      on_error(req, res, request_entity_too_large(limit));
      return;
    }
    if (!read) {
      res.status = -1;
      on_error(req, res, StatusError(400, "BadRequest", "the request body could not be read"));
      return;
    }
    // The handlers read the body from the request, as httplib's own routes have it.
    const_cast<httplib::Request&>(req).body = std::move(body);
    next(req, res);
  };
}

}  // namespace kubesim
