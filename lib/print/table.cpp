#include "print/table.h"

#include <algorithm>
#include <functional>
#include <sstream>
#include <string_view>

#include "print/color.h"
#include "print/escape.h"

namespace trainctl::print {

namespace {
constexpr int kPadding = 2;
constexpr int kMinShrunkWidth = 8;

// The cells of a stored row, split at '\0'.
std::vector<std::string_view> cells_of(std::string_view row) {
  std::vector<std::string_view> cells;
  for (;;) {
    const size_t end = row.find('\0');
    cells.push_back(row.substr(0, end));
    if (end == std::string_view::npos) return cells;
    row.remove_prefix(end + 1);
  }
}

// A row's sanitized cells joined by '\0', as many as `ncols` at least.
void join_row(const std::vector<std::string>& cells, size_t ncols, std::string& row) {
  row.clear();
  for (size_t c = 0; c < std::max(cells.size(), ncols); ++c) {
    if (c > 0) row += '\0';
    if (c < cells.size()) row += sanitize(cells[c]);
  }
}

struct Layout {
  const std::vector<std::string>& headers;
  bool underline;
  int status_column;
  bool tty;
  bool color;
  int width;
};

// Row i's text, made in `buffer` when it is not stored.
using RowText = std::function<std::string_view(size_t i, std::string& buffer)>;

// The lines of the header and the rows, each row asked for twice: to measure, then to print.
void render_lines(std::ostream& out, const Layout& layout, size_t nrows, const RowText& row_text);

}  // namespace

Table::Table(std::vector<std::string> headers) : m_headers(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  std::string row;
  join_row(cells, m_headers.size(), row);
  m_rows.push_back(std::move(row));
}

std::string Table::render(const IOStreams& io) const { return render(io.is_tty(), io.color(), io.width()); }

std::string Table::render(bool tty, bool color, int width) const {
  std::ostringstream out;
  render_to(out, tty, color, width);
  return out.str();
}

void Table::render_to(std::ostream& out, const IOStreams& io) const {
  render_to(out, io.is_tty(), io.color(), io.width());
}

void Table::render_to(std::ostream& out, bool tty, bool color, int width) const {
  render_lines(out, {m_headers, m_underline, m_status_column, tty, color, width}, m_rows.size(),
               [this](size_t i, std::string&) { return std::string_view(m_rows[i]); });
}

void render_rows_to(std::ostream& out, const IOStreams& io, const std::vector<std::string>& headers,
                    int status_column, size_t nrows,
                    const std::function<std::vector<std::string>(size_t)>& row) {
  render_lines(out, {headers, false, status_column, io.is_tty(), io.color(), io.width()}, nrows,
               [&](size_t i, std::string& text) {
                 join_row(row(i), headers.size(), text);
                 return std::string_view(text);
               });
}

namespace {

void render_lines(std::ostream& out, const Layout& layout, size_t nrows, const RowText& row_text) {
  const auto& [headers, underline, status_column, tty, color, width] = layout;
  std::vector<std::string_view> header(headers.begin(), headers.end());
  std::vector<std::string> dashes;
  if (underline)
    for (const auto& h : headers) dashes.emplace_back(static_cast<size_t>(display_width(h)), '-');
  const size_t head_lines = underline ? 2 : 1;
  std::string text;  // a row made on demand
  auto line_cells = [&](size_t li) {
    if (li == 0) return header;
    if (li < head_lines) return std::vector<std::string_view>(dashes.begin(), dashes.end());
    return cells_of(row_text(li - head_lines, text));
  };
  const size_t nlines = head_lines + nrows;

  std::vector<int> widths;
  for (size_t li = 0; li < nlines; ++li) {
    const auto l = line_cells(li);
    if (l.size() > widths.size()) widths.resize(l.size(), 0);
    for (size_t c = 0; c < l.size(); ++c) widths[c] = std::max(widths[c], display_width(l[c]));
  }
  const size_t ncols = widths.size();
  if (ncols == 0) return;

  // Fit the terminal: shorten the widest column (never below a few characters).
  size_t shrunk = ncols;  // the column cut to `widths[shrunk]`, none when ncols
  if (tty && width > 0) {
    int total = 0;
    for (size_t c = 0; c < ncols; ++c) total += widths[c] + (c + 1 < ncols ? kPadding : 0);
    if (total > width) {
      shrunk = static_cast<size_t>(std::max_element(widths.begin(), widths.end()) - widths.begin());
      widths[shrunk] = std::min(widths[shrunk], std::max(kMinShrunkWidth, widths[shrunk] - (total - width)));
    }
  }

  std::string line, cut;
  for (size_t li = 0; li < nlines; ++li) {
    line.clear();
    const auto l = line_cells(li);
    const bool data_row = li >= head_lines;
    // The last non-empty cell ends the line: no trailing padding.
    size_t last = l.size();
    while (last > 0 && l[last - 1].empty()) --last;
    for (size_t c = 0; c < last; ++c) {
      std::string_view cell = l[c];
      if (c == shrunk) {
        cut = truncate_to_width(cell, widths[c], "…");
        cell = cut;
      }
      const int w = display_width(cell);
      if (color && data_row && static_cast<int>(c) == status_column)
        line += paint(cell, status_color(l[c]));
      else
        line += cell;
      if (c + 1 < last) line.append(static_cast<size_t>(std::max(0, widths[c] - w) + kPadding), ' ');
    }
    line += '\n';
    out << line;
  }
}

}  // namespace

}  // namespace trainctl::print
