// The small helpers trainctl and kubesim share: trim, ascii_lower, read_file, base64.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/base64.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/text.h"

using namespace trainctl;

TEST_CASE("trim removes ASCII white space at both ends only", "[core][text]") {
  const std::pair<const char*, const char*> rows[] = {
      {"  a b \t\r\n", "a b"}, {"\v\fx\f", "x"}, {"", ""}, {" \n ", ""}, {"a", "a"}};
  for (const auto& [in, out] : rows) CHECK(trim(in) == out);
  CHECK(ascii_lower("PyTorchJob") == "pytorchjob");
}

TEST_CASE("read_file gives the bytes, or the system's reason", "[core][file]") {
  const std::string path =
      std::filesystem::temp_directory_path() / ("trainctl-read-" + std::to_string(getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string("a\0b\n", 4);
  }
  std::string error;
  CHECK(read_file(path, error) == std::string("a\0b\n", 4));
  CHECK(read_file(path) == std::string("a\0b\n", 4));
  std::remove(path.c_str());
  CHECK_FALSE(read_file(path, error));
  CHECK(error == "No such file or directory");
  CHECK_THROWS_AS(read_file(path), ConfigError);
  CHECK_THROWS_WITH(read_file(path), "cannot read " + path + ": No such file or directory");
  CHECK_FALSE(read_file("/", error));
  CHECK(error == "Is a directory");
}

TEST_CASE("base64 is standard, padded, and strict on reading", "[core][base64]") {
  CHECK(base64_encode("") == "");
  CHECK(base64_encode("f") == "Zg==");
  CHECK(base64_encode("client-crt-22") == "Y2xpZW50LWNydC0yMg==");
  CHECK(base64_decode("Zm9v\nYmFy\n") == std::string("foobar"));  // wrapped lines
  CHECK(base64_decode("Zg==") == std::string("f"));
  CHECK(base64_decode("") == std::string());
  CHECK_FALSE(base64_decode("Zg="));       // length
  CHECK_FALSE(base64_decode("Z=g="));      // '=' inside
  CHECK_FALSE(base64_decode("Zm9v!A=="));  // alphabet
  const std::string bytes("\x00\xff\x10 binary", 10);
  CHECK(base64_decode(base64_encode(bytes)) == bytes);
}
