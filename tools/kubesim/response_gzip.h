// gzip of response bodies as kube-apiserver does it (apiserver pkg/endpoints/handlers/
// responsewriters/writers.go): only when the client accepts gzip and the body is larger than
// 128 KiB, at level 1 (defaultGzipContentEncodingLevel, Go's gzip.BestSpeed).
#pragma once

#include <httplib.h>

#include <string>

namespace kubesim {

inline constexpr size_t kGzipThresholdBytes = 128 * 1024;
inline constexpr int kGzipLevel = 1;

// True when Accept-Encoding lists gzip (without q=0).
bool accepts_gzip(const httplib::Request& req);
// data gzip-compressed at kGzipLevel.
std::string gzip_compress(const std::string& data);
// Encodes res's body as above and keeps httplib's own compression (zlib's default level, or
// brotli's slowest when br is offered) from running: called once the handler is done.
void encode_response(const httplib::Request& req, httplib::Response& res);

}  // namespace kubesim
