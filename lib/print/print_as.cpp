#include "print/print_as.h"

#include "core/errors.h"

namespace trainctl::print {

void print_as(OutputFormat format, const Printers& p, std::ostream& out) {
  switch (format) {
    case OutputFormat::Table:
    case OutputFormat::Wide:
      if (p.human) return p.human(out);
      break;
    case OutputFormat::Json:
    case OutputFormat::Yaml:
      if (p.stream) return p.stream(out, format);
      if (p.document) {
        const auto doc = p.document();
        out << (format == OutputFormat::Json ? to_json(doc) : to_yaml(doc));
        return;
      }
      break;
    case OutputFormat::Name:
      if (p.names) {
        out << p.names();
        return;
      }
      break;
  }
  throw Error("no printer for -o " + output_name(format));
}

}  // namespace trainctl::print
