// --config-file HOST_FILE[:/container/path]: host files reach the pods through one ConfigMap
// per container directory, named as Arena names it (its user guide shows
// pytorch-config-file-a9cbad1b8719778 for /etc/config/config.json).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "core/errors.h"
#include "submit/config_files.h"
#include "submit/plan.h"
#include "submit_testing.h"
#include "support/paths.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

// A file under the test's temporary directory, removed at the end of the test.
struct TempFile {
  explicit TempFile(const std::string& name, const std::string& content)
      : path(std::string(P_tmpdir) + "/trainctl-test-" + name) {
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

std::string usage_error_of(const std::vector<std::string>& args) {
  try {
    const auto o = parse_submit("pytorch", args);
    submit::make_plan(o, "default", submit::read_config_files(o.config_files, o.name));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no UsageError";
}

}  // namespace

TEST_CASE("--config-file ships host files in a ConfigMap per directory, mounted there", "[config-file]") {
  TempFile cfg("config.json", "{\n  \"key\": \"job-config\"\n}\n");
  TempFile extra("extra.ini", "[a]\nb = ünïcode\n");
  TempFile bin("model.bin", std::string("\x00\xff\x10\x80", 4));
  auto objs = submit_objects("pytorch", {"--name=pytorch-config-file", "--workers=2", "--image=pytorch/pytorch",
                                         "--config-file", cfg.path + ":/etc/config/config.json", "--config-file",
                                         extra.path + ":/etc/config/extra.ini", "--config-file",
                                         bin.path + ":/opt/model/weights.bin", "python train.py"});
  REQUIRE(objs.size() == 3);  // the job, then the two ConfigMaps
  const json& etc = objs[1];
  CHECK(etc["kind"] == "ConfigMap");
  CHECK(etc["metadata"]["name"] == "pytorch-config-file-a9cbad1b8719778");  // md5("/etc/config")
  CHECK(etc["metadata"]["labels"]["release"] == "pytorch-config-file");
  CHECK(etc["data"]["config.json"] == "{\n  \"key\": \"job-config\"\n}\n");
  CHECK(etc["data"]["extra.ini"] == "[a]\nb = ünïcode\n");
  CHECK_FALSE(etc.contains("binaryData"));
  const json& opt = objs[2];
  CHECK_FALSE(opt.contains("data"));
  CHECK(opt["binaryData"]["weights.bin"] == "AP8QgA==");  // base64 of 00 ff 10 80
  for (const char* replica : {"Master", "Worker"}) {
    INFO(replica);
    const json& spec = pod_spec(objs[0], replica);
    std::map<std::string, std::string> volume_cm, mount_path;
    for (const auto& v : spec["volumes"])
      if (v.contains("configMap")) volume_cm[v["name"]] = v["configMap"]["name"];
    for (const auto& m : main_container(objs[0], replica)["volumeMounts"]) mount_path[m["name"]] = m["mountPath"];
    REQUIRE(volume_cm.size() == 2);
    for (const auto& [volume, cm] : volume_cm) {
      CHECK(mount_path[volume] == (cm == "pytorch-config-file-a9cbad1b8719778" ? "/etc/config" : "/opt/model"));
    }
  }
}

TEST_CASE("--config-file without a container path uses the host path; without the flag no ConfigMap", "[config-file]") {
  TempFile cfg("same.yaml", "a: 1\n");
  auto objs = submit_objects("mpi", {"--name=m", "--image=x/y", "--config-file", cfg.path, "mpirun x"});
  REQUIRE(objs.size() == 2);
  CHECK(objs[1]["data"]["trainctl-test-same.yaml"] == "a: 1\n");
  CHECK(submit_objects("mpi", {"--name=m", "--image=x/y", "mpirun x"}).size() == 1);
}

TEST_CASE("bad --config-file values are one-line usage errors", "[config-file]") {
  TempFile cfg("ok.json", "{}");
  const std::vector<std::string> base = {"--name=a", "--image=x/y"};
  auto with = [&](std::vector<std::string> more) {
    auto args = base;
    args.insert(args.end(), more.begin(), more.end());
    args.push_back("python x.py");
    return usage_error_of(args);
  };
  CHECK(with({"--config-file", cfg.path + ":etc/x.json"}).find("the container path must be absolute") !=
        std::string::npos);
  // Arena's form without a container path: the file lands at its absolute host path; a
  // missing file is the error then.
  CHECK(with({"--config-file", "no-such-rel.json"}).find("cannot read --config-file") != std::string::npos);
  CHECK(with({"--config-file", "/nonexistent/trainctl.json:/etc/x.json"}) ==
        "cannot read --config-file \"/nonexistent/trainctl.json\": no such readable file");
  CHECK(with({"--config-file", cfg.path + ":/etc/a b.json"}).find("cannot be a file name in a ConfigMap") !=
        std::string::npos);
  CHECK(with({"--config-file", cfg.path + ":/etc/x.json", "--config-file", cfg.path + ":/etc/x.json"}) ==
        "--config-file puts two files at \"/etc/x.json\"");
  CHECK(with({"--data=pvc:/etc", "--config-file", cfg.path + ":/etc/x.json"}) ==
        "--config-file mounts a volume at \"/etc\" too");
  TempFile big("big.txt", std::string(submit::kConfigFileBytes + 1, 'a'));
  CHECK(with({"--config-file", big.path + ":/etc/big.txt"}).find("a ConfigMap holds at most 1 MiB") !=
        std::string::npos);
}

TEST_CASE("--config-file reads regular files only, no further than a ConfigMap holds", "[config-file]") {
  auto with = [](const std::string& spec) {
    return usage_error_of({"--name=a", "--image=x/y", "--config-file", spec, "x"});
  };
  // /dev/zero would be read until memory runs out; a FIFO would wait for a writer forever.
  CHECK(with("/dev/zero:/etc/z") == "cannot read --config-file \"/dev/zero\": is not a regular file");
  const std::string dir = trainctl::testing::make_temp_dir("config-fifo");
  const std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(with(fifo + ":/etc/p") == "cannot read --config-file \"" + fifo + "\": is not a regular file");
  CHECK(with(dir + ":/etc/d") == "cannot read --config-file \"" + dir + "\": is a directory");
  TempFile big("bigger.txt", std::string(submit::kConfigFileBytes + 1, 'a'));
  CHECK(with(big.path + ":/etc/big.txt") ==
        "cannot read --config-file \"" + big.path +
            "\": is larger than 1000000 bytes (a ConfigMap holds at most 1 MiB)");
}

TEST_CASE("make_plan reads no file: the command reads --config-file and hands the contents over", "[config-file]") {
  const auto o = parse_submit("pytorch", {"--name=cfg", "--image=i", "--config-file=/nonexistent/a.json:/etc/a.json",
                                          "python train.py"});
  CHECK_THROWS_AS(submit::read_config_files(o.config_files, o.name), UsageError);
  submit::ConfigDir dir{"cfg-config", "/etc", {{"a.json", "{}", false}}};
  const submit::Plan plan = submit::make_plan(o, "default", {dir});
  REQUIRE(plan.config_dirs.size() == 1);
  CHECK(plan.config_dirs[0].files[0].content == "{}");
}
