#include <catch2/catch.hpp>

#include "print/bar.h"
#include "print/escape.h"
#include "print/table.h"

using trainctl::print::Table;

namespace {
Table data_list_table() {
  // `arena data list` from the PyTorch walk-through: empty DESCRIPTION and OWNER cells still pad.
  Table t({"NAME", "ACCESSMODE", "DESCRIPTION", "OWNER", "AGE"});
  t.add_row({"training-data", "ReadWriteMany", "", "", "35m"});
  return t;
}
}  // namespace

TEST_CASE("table pads columns by two spaces like Go's tabwriter and leaves the last column unpadded") {
  // Expected text copied from the seed document, where Arena printed it.
  CHECK(data_list_table().render(false, false, 80) ==
        "NAME           ACCESSMODE     DESCRIPTION  OWNER  AGE\n"
        "training-data  ReadWriteMany                      35m\n");
}

TEST_CASE("table with an underline row, as arena get prints its instances") {
  Table t({"NAME", "STATUS", "AGE", "IS_CHIEF", "GPU(Requested)", "NODE"});
  t.set_underline(true);
  t.add_row({"vgg16-launcher-mnjzr", "Running", "11s", "true", "0", "cn-shanghai.192.168.16.173"});
  CHECK(t.render(false, false, 200) ==
        "NAME                  STATUS   AGE  IS_CHIEF  GPU(Requested)  NODE\n"
        "----                  ------   ---  --------  --------------  ----\n"
        "vgg16-launcher-mnjzr  Running  11s  true      0               cn-shanghai.192.168.16.173\n");
}

TEST_CASE("status cells are coloured only when colour is on") {
  Table t({"NAME", "STATUS", "AGE"});
  t.set_status_column(1);
  t.add_row({"a", "RUNNING", "1s"});
  t.add_row({"b", "PENDING", "1s"});
  t.add_row({"c", "FAILED", "1s"});
  t.add_row({"d", "SUCCEEDED", "1s"});
  const std::string plain = t.render(true, false, 80);
  CHECK(plain.find('\x1b') == std::string::npos);
  const std::string coloured = t.render(true, true, 80);
  CHECK(coloured.find("\x1b[32mRUNNING\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[33mPENDING\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[31mFAILED\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[2mSUCCEEDED\x1b[0m") != std::string::npos);
  // Padding is computed on the visible text: "RUNNING" + 4 spaces lines up with "SUCCEEDED" + 2.
  CHECK(coloured.find("\x1b[32mRUNNING\x1b[0m    1s") != std::string::npos);
  // The header is never coloured.
  CHECK(coloured.rfind("NAME  STATUS     AGE\n", 0) == 0);
}

TEST_CASE("on a TTY the widest column is cut to fit the terminal; a pipe is never cut") {
  Table t({"NAME", "STATUS"});
  t.add_row({"a-very-long-job-name-that-does-not-fit", "RUNNING"});
  // 38 + 2 + 7 = 47 columns; a 30-column terminal leaves 21 for the name.
  CHECK(t.render(true, false, 30) ==
        "NAME                   STATUS\n"
        "a-very-long-job-name…  RUNNING\n");
  CHECK(t.render(false, false, 30) ==
        "NAME                                    STATUS\n"
        "a-very-long-job-name-that-does-not-fit  RUNNING\n");
}

TEST_CASE("control characters from the cluster never reach the terminal") {
  Table t({"NAME", "STATUS"});
  t.add_row({"evil\x1b[2J\rname", "Running"});
  const std::string s = t.render(true, true, 120);
  CHECK(s.find("\x1b[2J") == std::string::npos);
  CHECK(s.find('\r') == std::string::npos);
  CHECK(s.find("evil\\x1b[2J\\x0dname") != std::string::npos);
}

TEST_CASE("sanitize keeps printable UTF-8 and escapes C1 controls and invalid bytes") {
  using trainctl::print::sanitize;
  CHECK(sanitize("训练-data") == "训练-data");
  CHECK(sanitize("a\xc2\x9b"
                 "31mb") == "a\\u009b31mb");  // CSI as a C1 control
  CHECK(sanitize("bad\xff") == "bad\\xff");
  CHECK(sanitize("tab\there") == "tab\\x09here");
  CHECK(trainctl::print::display_width("训练") == 4);
}

TEST_CASE("usage bar") {
  using trainctl::print::usage_bar;
  CHECK(usage_bar(1, 2, 4) == "██░░");
  CHECK(usage_bar(1, 8, 4) == "█░░░");
  CHECK(usage_bar(0, 8, 4) == "░░░░");
  CHECK(usage_bar(0, 0, 4).empty());
}
