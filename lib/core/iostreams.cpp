#include "core/iostreams.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "core/text.h"

namespace trainctl {

IOStreams IOStreams::system() {
  IOStreams s;
  s.m_out = &std::cout;
  s.m_err = &std::cerr;
  s.m_tty = ::isatty(STDOUT_FILENO) == 1;
  const char* term = std::getenv("TERM");
  const char* no_color = std::getenv("NO_COLOR");
  s.m_color = s.m_tty && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
  s.m_unicode = locale_is_utf8(std::getenv("LC_ALL"), std::getenv("LC_CTYPE"), std::getenv("LANG"));
  s.m_width = 80;
  struct winsize ws {};
  if (s.m_tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    s.m_width = ws.ws_col;
  } else if (const char* cols = std::getenv("COLUMNS")) {
    int c = std::atoi(cols);
    if (c > 0) s.m_width = c;
  }
  return s;
}

IOStreams IOStreams::test(bool tty, int width) {
  IOStreams s;
  s.m_out_buf = std::make_shared<std::ostringstream>();
  s.m_err_buf = std::make_shared<std::ostringstream>();
  s.m_out = s.m_out_buf.get();
  s.m_err = s.m_err_buf.get();
  s.m_tty = tty;
  s.m_color = tty;
  s.m_unicode = tty;  // a test terminal speaks UTF-8 unless set_unicode(false)
  s.m_width = width;
  return s;
}

bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang) {
  const char* chosen = nullptr;
  for (const char* v : {lc_all, lc_ctype, lang})
    if (v && *v) {
      chosen = v;
      break;
    }
  if (!chosen) return false;
  const std::string name = ascii_lower(chosen);
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return false;
  std::string codeset = name.substr(dot + 1, name.find('@', dot) - dot - 1);
  return codeset == "utf-8" || codeset == "utf8";
}

std::string IOStreams::out_text() const { return m_out_buf ? m_out_buf->str() : std::string(); }
std::string IOStreams::err_text() const { return m_err_buf ? m_err_buf->str() : std::string(); }

}  // namespace trainctl
