// The logs of several replicas written to one stream as they arrive: every line whole (no
// interleaving within a line), each with its replica's prefix, and each replica's lines in
// their order. A replica's stream is timestamped (timestamps=true, as the kubelet writes
// them) so that a stream opened again after a cut or a container restart, which starts at
// the last line's second (sinceTime), repeats nothing: lines up to the last one written are
// dropped. Lines are held and written together when the streams go quiet, at 256 KiB, or
// on flush(): a fast stream costs no system call per line.
#pragma once

#include "jobs/logs/log_resume.h"

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "jobs/time.h"

namespace trainctl::jobs {

class MergedOutput {
 public:
  explicit MergedOutput(std::ostream& out) : m_out(out) {}
  // One line (without '\n') after `prefix`.
  void line(std::string_view prefix, std::string_view text);
  void flush();

 private:
  static constexpr size_t kMaxHeld = 256 * 1024;
  std::ostream& m_out;
  std::string m_buffer;
};

// The prefix of a replica's lines: "[worker-1] " padded to `width` characters of label
// (the widest label among the replicas), coloured on a colour terminal; "" when off.
std::string log_prefix(std::string_view label, size_t width, bool color, size_t colour_index);

class ReplicaLines {
 public:
  ReplicaLines(MergedOutput& out, std::string prefix, bool keep_timestamps)
      : m_out(out), m_prefix(std::move(prefix)), m_resume(keep_timestamps) {}

  void set_prefix(std::string prefix) { m_prefix = std::move(prefix); }
  // Bytes of the stream, cut anywhere: whole lines are written, the start of a line whose
  // end has not come yet is held.
  void feed(std::string_view bytes);
  // The stream ended: a held last line without its '\n' is written.
  void end();
  // The stream was cut: a held partial line is dropped (the resumed stream sends it whole).
  void cut() { m_partial.clear(); }
  // Before the next stream of this replica: the lines of the last second written are
  // expected again and skipped.
  void resume() { m_resume.resume(); }
  // The time of the last line written, for the next stream's sinceTime.
  const std::optional<TimePoint>& last() const { return m_resume.last(); }

 private:
  void whole_line(std::string_view line);

  MergedOutput& m_out;
  std::string m_prefix;
  LogResume m_resume;
  std::string m_partial;
};

}  // namespace trainctl::jobs
