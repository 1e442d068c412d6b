#include "kubesim/response_gzip.h"

#include "kubesim/watch.h"

#include <zlib.h>

#include <cstdlib>
#include <stdexcept>

namespace kubesim {

bool accepts_gzip(const httplib::Request& req) {
  const std::string v = req.get_header_value("Accept-Encoding");
  size_t start = 0;
  while (start < v.size()) {
    size_t comma = v.find(',', start);
    std::string part = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? v.size() : comma + 1;
    part.erase(0, part.find_first_not_of(' '));
    size_t semi = part.find(';');
    std::string coding = part.substr(0, semi);
    coding.erase(coding.find_last_not_of(' ') + 1);
    if (coding != "gzip" && coding != "*") continue;
    if (semi != std::string::npos) {
      std::string q = part.substr(semi + 1);
      q.erase(0, q.find_first_not_of(' '));
      if (q.rfind("q=", 0) == 0 && std::strtod(q.c_str() + 2, nullptr) <= 0) continue;
    }
    return true;
  }
  return false;
}

std::string gzip_compress(const std::string& data) {
  z_stream zs{};
  if (deflateInit2(&zs, kGzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(data.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate failed");
  return out;
}

void encode_response(const httplib::Request& req, httplib::Response& res) {
  const bool gzip = accepts_gzip(req);
  disable_compression(req);
  if (!gzip || res.body.size() <= kGzipThresholdBytes || res.has_header("Content-Encoding")) return;
  res.body = gzip_compress(res.body);
  res.set_header("Content-Encoding", "gzip");
  res.set_header("Vary", "Accept-Encoding");
}

}  // namespace kubesim
