#include "kubesim/list_body.h"

#include "kubesim/response_gzip.h"
#include "kubesim/watch.h"

#include <zlib.h>

namespace kubesim {

namespace {

constexpr size_t kPieceBytes = 64 * 1024;

// What the chunked provider walks through: head, items joined by commas, tail.
struct ListStream {
  std::string head, tail;
  EncodedItems items;
  size_t next = 0;  // next item
  bool head_sent = false, tail_sent = false;
  bool gzip = false;
  z_stream zs{};
  std::string piece, out;

  ~ListStream() {
    if (gzip) deflateEnd(&zs);
  }
  // The next piece of plain body, about kPieceBytes (one large item may make it larger).
  bool fill() {
    piece.clear();
    if (!head_sent) {
      piece += head;
      head_sent = true;
    }
    while (next < items.size() && piece.size() < kPieceBytes) {
      if (next) piece += ',';
      piece += *items[next++];
    }
    if (next == items.size() && !tail_sent && piece.size() < kPieceBytes) {
      piece += tail;
      tail_sent = true;
    }
    return !piece.empty();
  }
  bool finished() const { return tail_sent; }
  // Compresses piece; Z_SYNC_FLUSH so every piece leaves at once, Z_FINISH at the end.
  const std::string& deflate_piece() {
    out.resize(deflateBound(&zs, static_cast<uLong>(piece.size())) + 64);
    zs.next_in = reinterpret_cast<Bytef*>(piece.data());
    zs.avail_in = static_cast<uInt>(piece.size());
    size_t used = 0;
    for (;;) {
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + used);
      zs.avail_out = static_cast<uInt>(out.size() - used);
      int rc = ::deflate(&zs, finished() ? Z_FINISH : Z_SYNC_FLUSH);
      used = out.size() - zs.avail_out;
      if (zs.avail_out != 0 || rc == Z_STREAM_END || rc == Z_STREAM_ERROR) break;
      out.resize(out.size() * 2);  // not reached: deflateBound covers a piece
    }
    out.resize(used);
    return out;
  }
};

}  // namespace

std::string join_list_body(std::string head, const EncodedItems& items, const std::string& tail) {
  size_t total = head.size() + tail.size();
  for (const auto& e : items) total += e->size() + 1;
  std::string out = std::move(head);
  out.reserve(total);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    out += *items[i];
  }
  out += tail;
  return out;
}

void send_list_body(const httplib::Request& req, httplib::Response& res, std::string head, EncodedItems items,
                    std::string tail, bool stream) {
  res.status = 200;
  size_t total = head.size() + tail.size();
  for (const auto& e : items) total += e->size() + 1;
  if (!stream || total <= kGzipThresholdBytes) {
    res.set_content(join_list_body(std::move(head), items, tail), "application/json");
    return;
  }
  auto s = std::make_shared<ListStream>();
  s->head = std::move(head);
  s->tail = std::move(tail);
  s->items = std::move(items);
  s->gzip = accepts_gzip(req) &&
            deflateInit2(&s->zs, kGzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  disable_compression(req);  // httplib's own compressor stays out of the way
  if (s->gzip) {
    res.set_header("Content-Encoding", "gzip");
    res.set_header("Vary", "Accept-Encoding");
  }
  res.set_chunked_content_provider("application/json", [s](size_t, httplib::DataSink& sink) {
    if (!s->fill()) {
      sink.done();
      return true;
    }
    const std::string& data = s->gzip ? s->deflate_piece() : s->piece;
    if (!data.empty() && !sink.write(data.data(), data.size())) return false;
    if (s->finished()) sink.done();
    return true;
  });
}

}  // namespace kubesim
