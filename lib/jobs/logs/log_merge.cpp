#include "jobs/logs/log_merge.h"

#include <array>
#include <cstring>

namespace trainctl::jobs {

void MergedOutput::line(std::string_view prefix, std::string_view text) {
  m_buffer.append(prefix);
  m_buffer.append(text);
  m_buffer += '\n';
  if (m_buffer.size() >= kMaxHeld) flush();
}

void MergedOutput::flush() {
  if (m_buffer.empty()) return;
  m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
  m_out.flush();
  m_buffer.clear();
}

std::string log_prefix(std::string_view label, size_t width, bool color, size_t colour_index) {
  std::string p = "[" + std::string(label) + "]";
  if (label.size() < width) p.append(width - label.size(), ' ');
  if (color) {
    // Six distinct foreground colours (kubectl's --prefix has none; stern cycles the same).
    static constexpr std::array<const char*, 6> kColours = {"\033[32m", "\033[33m", "\033[34m",
                                                            "\033[35m", "\033[36m", "\033[31m"};
    p = kColours[colour_index % kColours.size()] + p + "\033[0m";
  }
  return p + " ";
}

void ReplicaLines::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    const auto* nl = static_cast<const char*>(std::memchr(bytes.data(), '\n', bytes.size()));
    if (nl == nullptr) {
      m_partial.append(bytes);
      return;
    }
    const size_t end = static_cast<size_t>(nl - bytes.data());
    if (m_partial.empty()) {
      whole_line(bytes.substr(0, end));
    } else {
      m_partial.append(bytes.substr(0, end));
      whole_line(m_partial);
      m_partial.clear();
    }
    bytes.remove_prefix(end + 1);
  }
}

void ReplicaLines::end() {
  if (m_partial.empty()) return;
  std::string last = std::move(m_partial);
  m_partial.clear();
  whole_line(last);
}

void ReplicaLines::whole_line(std::string_view line) {
  if (const auto text = m_resume.accept(line)) m_out.line(m_prefix, *text);
}

}  // namespace trainctl::jobs
