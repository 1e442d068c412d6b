#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>

#include "cmd/docs/docs_gen.h"
#include "completion_support.h"
#include "support/paths.h"

namespace fs = std::filesystem;

TEST_CASE("a page per command: usage, aliases, flags with values and defaults, examples") {
  Tree t;
  const auto pages = trainctl::docs::markdown_pages(t.app);
  REQUIRE(pages.count("trainctl.md"));
  REQUIRE(pages.count("trainctl_submit_pytorch.md"));
  REQUIRE(pages.count("trainctl_top_node.md"));
  CHECK_FALSE(pages.count("trainctl___complete.md"));  // hidden commands have no page

  const std::string& list = pages.at("trainctl_list.md");
  CHECK_THAT(list, Catch::Contains("# trainctl list\n\nList training jobs\n"));
  CHECK_THAT(list, Catch::Contains("```\ntrainctl list [flags]\n```"));
  CHECK_THAT(list, Catch::Contains("Aliases: `ls`"));
  CHECK_THAT(list, Catch::Contains("| `-o`, `--output` | `wide\\|json\\|yaml\\|name` |"));
  CHECK_THAT(list, Catch::Contains("trainctl list -A -T pytorch"));  // from the examples footer
  CHECK_THAT(list, Catch::Contains("## Global flags"));
  CHECK_THAT(list, Catch::Contains("| `-n`, `--namespace` | `string` |"));
  CHECK_THAT(list, !Catch::Contains("allNamespaces"));  // hidden flag

  const std::string& logs = pages.at("trainctl_logs.md");
  CHECK_THAT(logs, Catch::Contains("trainctl logs [flags] NAME\n"));
  CHECK_THAT(pages.at("trainctl_delete.md"), Catch::Contains("trainctl delete [flags] NAMES...\n"));
  CHECK_THAT(pages.at("trainctl_submit_pytorch.md"),
             Catch::Contains("| `--working-dir` | `string` | `/root` |"));
  CHECK_THAT(pages.at("trainctl_submit.md"),
             Catch::Contains("* [trainctl submit mpi](trainctl_submit_mpi.md)"));
  CHECK_THAT(pages.at("trainctl.md"), Catch::Contains("Exit codes: 0 ok"));
}

TEST_CASE("the man page is roff with every command and escaped flags") {
  Tree t;
  const std::string man = trainctl::docs::man_page(t.app);
  CHECK(man.rfind(".\\\" Generated", 0) == 0);
  CHECK_THAT(man, Catch::Contains("\n.TH TRAINCTL 1 "));
  CHECK_THAT(man, Catch::Contains("\n.SH NAME\ntrainctl \\- "));
  CHECK_THAT(man, Catch::Contains("\n.SS trainctl submit pytorch\n"));
  CHECK_THAT(man, Catch::Contains("\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIwide|json|yaml|name\\fR"));
  CHECK_THAT(man, Catch::Contains(".SH FILES"));
  // No line may start with a request character that is text, not a macro.
  std::istringstream lines(man);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '\'') continue;
    FAIL("line starts with a quote: " << line);
  }
}

TEST_CASE("the committed docs/commands and docs/man are those the command tree generates") {
  // Regenerate with: trainctl __gendocs docs (or cmake --build BUILD --target update-generated).
  Tree t;
  const std::string docs = std::string(TRAINCTL_SOURCE_DIR) + "/docs";
  const auto pages = trainctl::docs::markdown_pages(t.app);
  std::set<std::string> committed;
  for (const auto& e : fs::directory_iterator(docs + "/commands"))
    committed.insert(e.path().filename().string());
  for (const auto& [name, text] : pages) {
    INFO(name);
    CHECK(read_text(docs + "/commands/" + name) == text);
    committed.erase(name);
  }
  CHECK(committed.empty());  // pages of commands that no longer exist
  CHECK(read_text(docs + "/man/trainctl.1") == trainctl::docs::man_page(t.app));
}

TEST_CASE("__gendocs writes the pages and the man page, and removes stale pages") {
  const std::string dir = trainctl::testing::make_temp_dir("gendocs");
  fs::create_directories(dir + "/commands");
  std::ofstream(dir + "/commands/trainctl_gone.md") << "old";
  std::ofstream(dir + "/commands/notes.md") << "kept";
  Tree t;
  t.app.parse(std::vector<std::string>{dir, "__gendocs"});
  CHECK_FALSE(fs::exists(dir + "/commands/trainctl_gone.md"));
  CHECK(fs::exists(dir + "/commands/notes.md"));
  CHECK(fs::exists(dir + "/commands/trainctl_get.md"));
  CHECK(fs::exists(dir + "/man/trainctl.1"));
  CHECK_THAT(t.factory.io().out_text(), Catch::Contains("/man/trainctl.1\n"));
}
