// Where a command writes, and what kind of terminal it is. Commands write to IOStreams,
// never to std::cout directly, so tests can capture output and force TTY behaviour.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <sstream>
#include <string>

namespace trainctl {

class IOStreams {
public:
  // Real process streams; TTY and colour detected from fd 1 and the environment
  // (NO_COLOR, TERM=dumb), terminal width from the terminal or COLUMNS.
  static IOStreams system();
  // In-memory streams for tests.
  static IOStreams test(bool tty = false, int width = 120);

  std::ostream& out() const { return *m_out; }
  std::ostream& err() const { return *m_err; }
  bool is_tty() const { return m_tty; }
  bool color() const { return m_color; }
  int width() const { return m_width; }
  // Whether symbols beyond ASCII (✓, ✗, sparkline blocks) may be printed: a terminal whose
  // locale is UTF-8.
  bool unicode() const { return m_unicode && m_tty; }
  void set_unicode(bool on) { m_unicode = on; }
  void set_color(bool on) { m_color = on && m_tty; }
  void disable_color() { m_color = false; }

  // Contents written so far (test streams only).
  std::string out_text() const;
  std::string err_text() const;

private:
  std::ostream* m_out = nullptr;
  std::ostream* m_err = nullptr;
  std::shared_ptr<std::ostringstream> m_out_buf;
  std::shared_ptr<std::ostringstream> m_err_buf;
  bool m_tty = false;
  bool m_color = false;
  bool m_unicode = false;
  int m_width = 80;
};

// Whether the locale the environment names for characters is UTF-8, as setlocale(LC_CTYPE,
// "") picks it: LC_ALL, else LC_CTYPE, else LANG, the first that is set and not empty
// (POSIX, "Internationalization Variables"); its codeset "UTF-8" or "utf8", in any case.
bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang);

// The wall clock, injectable so that durations and ages print deterministically in tests.
using Clock = std::function<std::chrono::system_clock::time_point()>;
inline Clock system_clock() {
  return [] { return std::chrono::system_clock::now(); };
}

}  // namespace trainctl
