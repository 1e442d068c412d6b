// A column table in the layout of Go's text/tabwriter as Arena uses it (padding 2, the last
// column not padded). On a TTY: status cells in colour (when colour is on) and rows cut to
// the terminal width by shortening the widest column with "…". In a pipe: plain text, no
// escape codes, nothing cut. Cell text is sanitized (control characters made visible).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/iostreams.h"

namespace trainctl::print {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);

  void add_row(std::vector<std::string> cells);
  // Cells of this column are coloured as status values on a colour TTY.
  void set_status_column(int index) { m_status_column = index; }
  // Prints a "----" row under the header, each cell as long as its header (arena get).
  void set_underline(bool on) { m_underline = on; }
  size_t row_count() const { return m_rows.size(); }

  // Renders for the given streams: TTY, colour and width are taken from `io`.
  std::string render(const IOStreams& io) const;
  std::string render(bool tty, bool color, int width) const;
  // The same text written line by line to `out` (no copy of the whole table is made).
  void render_to(std::ostream& out, const IOStreams& io) const;
  void render_to(std::ostream& out, bool tty, bool color, int width) const;

 private:
  std::vector<std::string> m_headers;
  // Each row's sanitized cells joined by '\0' (sanitize leaves none in a cell): a row of a
  // long list costs its text and one string, not a vector of strings.
  std::vector<std::string> m_rows;
  int m_status_column = -1;
  bool m_underline = false;
};

// The text Table writes of `headers` and `nrows` rows made on demand: row(i) gives row i's
// cells and is called twice for each row, once to measure the columns and once to print it,
// so that a long table is written without holding its rows.
void render_rows_to(std::ostream& out, const IOStreams& io, const std::vector<std::string>& headers,
                    int status_column, size_t nrows,
                    const std::function<std::vector<std::string>(size_t)>& row);

}  // namespace trainctl::print
