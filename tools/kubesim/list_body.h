// The body of a list answer: the list's head, its items' cached encodings (StoredObject::enc)
// and "]}", sent without building one string. A body over kGzipThresholdBytes goes out as
// HTTP chunks of about 64 KiB, gzip-compressed as it is sent when the client accepts gzip
// (kube-apiserver streams its JSON encoder through a level-1 gzip writer the same way), so
// the client decodes the first chunk while the rest is compressed.
#pragma once

#include <httplib.h>

#include <memory>
#include <string>
#include <vector>

namespace kubesim {

using EncodedItems = std::vector<std::shared_ptr<const std::string>>;

// Answers 200 with head + item,item,... + tail. stream = false: one body (for a fault rule
// that must see the whole body).
void send_list_body(const httplib::Request& req, httplib::Response& res, std::string head, EncodedItems items,
                    std::string tail, bool stream = true);

// head + item,item,... + tail as one string.
std::string join_list_body(std::string head, const EncodedItems& items, const std::string& tail);

}  // namespace kubesim
