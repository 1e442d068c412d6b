// An error as main prints it: its own lines kept as lines, text from elsewhere escaped.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "print/error_text.h"

using trainctl::NotFoundError;
using trainctl::UsageError;
using trainctl::print::error_text;

TEST_CASE("error_text keeps the error's own lines and escapes what is inside each") {
  // A pod name cannot hold a line break, but a server's message or a kubeconfig's context
  // name can: inside a part it is shown, never obeyed.
  const NotFoundError e("job a\nb has no instance x; its instances are:",
                        {"a-0  master-0 (chief)", "a-1\x1b[2J\nerror: forged  worker-0"});
  CHECK(error_text(e) ==
        "error: job a\\x0ab has no instance x; its instances are:\n"
        "  a-0  master-0 (chief)\n"
        "  a-1\\x1b[2J\\x0aerror: forged  worker-0\n");
  CHECK(e.code() == trainctl::ExitCode::NotFound);
  // what() holds every line, for logs and tests.
  CHECK(std::string(e.what()) ==
        "job a\nb has no instance x; its instances are:\n  a-0  master-0 (chief)\n  a-1\x1b[2J\nerror: "
        "forged  worker-0");
}

TEST_CASE("error_text of an error without lines is one escaped line") {
  CHECK(error_text(UsageError("bad\tvalue")) == "error: bad\\x09value\n");
  CHECK(error_text(UsageError("choose:", {"one", "two"})) == "error: choose:\n  one\n  two\n");
}
