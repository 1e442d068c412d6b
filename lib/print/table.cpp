#include "print/table.h"

#include <algorithm>
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
}  // namespace

Table::Table(std::vector<std::string> headers) : m_headers(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(std::max(cells.size(), m_headers.size()));
  std::string row;
  for (size_t c = 0; c < cells.size(); ++c) {
    if (c > 0) row += '\0';
    row += sanitize(cells[c]);
  }
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
  std::vector<std::string_view> header(m_headers.begin(), m_headers.end());
  std::vector<std::string> dashes;
  if (m_underline)
    for (const auto& h : m_headers) dashes.emplace_back(static_cast<size_t>(display_width(h)), '-');
  const size_t head_lines = m_underline ? 2 : 1;
  auto line_cells = [&](size_t li) {
    if (li == 0) return header;
    if (li < head_lines) return std::vector<std::string_view>(dashes.begin(), dashes.end());
    return cells_of(m_rows[li - head_lines]);
  };
  const size_t nlines = head_lines + m_rows.size();

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
      if (color && data_row && static_cast<int>(c) == m_status_column)
        line += paint(cell, status_color(l[c]));
      else
        line += cell;
      if (c + 1 < last) line.append(static_cast<size_t>(std::max(0, widths[c] - w) + kPadding), ' ');
    }
    line += '\n';
    out << line;
  }
}

}  // namespace trainctl::print
