// A mistyped command or flag: the error, cobra's "Did you mean this?" and where help is.
#include <catch2/catch.hpp>

#include "cmd/parse_error.h"
#include "cmd_harness.h"

using trainctl::edit_distance;
using trainctl::suggestions_for;

namespace {
// What main prints for `trainctl ARGS...` when the command line does not parse.
std::string parse_error_for(const std::vector<std::string>& args) {
  Harness h;
  CLI::App app{"trainctl", "trainctl"};
  trainctl::setup_all(app, h.factory, h.globals);
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& e) {
    return trainctl::parse_error_text(app, e);
  }
  return "(parsed)";
}
}  // namespace

TEST_CASE("edit_distance is cobra's ld: Levenshtein, ignoring case") {
  CHECK(edit_distance("lst", "list") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("LiSt", "list") == 0);
  CHECK(edit_distance("", "top") == 3);
  CHECK(edit_distance("tial", "tail") == 2);
}

TEST_CASE("suggestions_for suggests as cobra's TestSuggestions expects") {
  // spf13/cobra v1.10.2 command_test.go TestSuggestions: a command "times" that also answers
  // to "counts" (there SuggestFor, here an alias).
  const std::vector<std::vector<std::string>> times{{"times", "counts"}};
  for (const char* typo : {"time", "tiems", "tims", "timeS", "rimes", "ti", "t", "timely", "counts"}) {
    INFO(typo);
    CHECK(suggestions_for(typo, times) == std::vector<std::string>{"times"});
  }
  for (const char* typo : {"ri", "timezone", "foo"}) {
    INFO(typo);
    CHECK(suggestions_for(typo, times).empty());
  }
  // Nearest first; as near, in the commands' order.
  CHECK(suggestions_for("lst", {{"get"}, {"logs", "log"}, {"list", "ls"}, {"top"}}) ==
        std::vector<std::string>{"list", "get", "logs"});
}

TEST_CASE("a mistyped command gets kubectl's \"Did you mean this?\"") {
  CHECK(parse_error_for({"lst"}) ==
        "error: unknown command \"lst\" for \"trainctl\"\n"
        "\n"
        "Did you mean this?\n"
        "\tlist\n"
        "\tget\n"
        "\tlogs\n"
        "\n"
        "Run 'trainctl --help' for usage.\n");
  CHECK(parse_error_for({"top", "nod"}) ==
        "error: unknown command \"nod\" for \"trainctl top\"\n\nDid you mean this?\n\tnode\n\tjob\n\n"
        "Run 'trainctl top --help' for usage.\n");
  // Nothing near: the error alone, as cobra prints it. Hidden commands are never suggested.
  CHECK(parse_error_for({"frobnicate"}) ==
        "error: unknown command \"frobnicate\" for \"trainctl\"\nRun 'trainctl --help' for usage.\n");
  CHECK(parse_error_for({"__complet"}).find("Did you mean") == std::string::npos);
}

TEST_CASE("a mistyped flag gets the command's nearest flags, global ones included") {
  CHECK(parse_error_for({"logs", "pytorch-dist", "--tial", "5"}) ==
        "error: unknown flag: --tial\n\nDid you mean this?\n\t--tail\n\nRun 'trainctl logs --help' for "
        "usage.\n");
  CHECK(parse_error_for({"list", "--namespce=team-a"}) ==
        "error: unknown flag: --namespce\n\nDid you mean this?\n\t--namespace\n\n"
        "Run 'trainctl list --help' for usage.\n");
  CHECK(parse_error_for({"list", "--frobnicate"}) ==
        "error: unknown flag: --frobnicate\nRun 'trainctl list --help' for usage.\n");
}
