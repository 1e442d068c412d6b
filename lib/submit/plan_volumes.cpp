// The part of make_plan about what the pods mount and what runs beside them: --data PVCs,
// --data-dir host paths, --config-file ConfigMaps, code sync and TensorBoard.
#include <algorithm>
#include <regex>
#include <set>

#include "core/errors.h"
#include "submit/parse.h"
#include "submit/plan.h"

namespace trainctl::submit {

namespace {

bool under(const std::string& path, const std::string& dir) {
  if (path == dir) return true;
  std::string d = dir.back() == '/' ? dir : dir + "/";
  return path.compare(0, d.size(), d) == 0;
}

void plan_sync(const SubmitOptions& o, Plan& p) {
  if (!o.sync_mode.empty() && o.sync_mode != "git" && o.sync_mode != "rsync")
    throw UsageError("invalid --sync-mode " + dq(o.sync_mode) + ": use git or rsync");
  if (!o.sync_mode.empty() && o.sync_source.empty()) throw UsageError("--sync-mode needs --sync-source");
  if (o.sync_mode.empty() && !o.sync_source.empty())
    throw UsageError("--sync-source needs --sync-mode (git or rsync)");
  if (o.sync_mode.empty() && !o.sync_image.empty())
    throw UsageError("--sync-image needs --sync-mode (git or rsync)");
  p.sync_mode = o.sync_mode;
  p.sync_source = o.sync_source;
  p.sync_image = o.sync_image;
  if (p.sync_mode == "git") {
    p.sync_repo = git_repo_name(o.sync_source);
    if (p.sync_repo.empty()) throw UsageError("invalid --sync-source " + dq(o.sync_source) + ": no repository name");
    if (p.sync_image.empty()) p.sync_image = "registry.cn-zhangjiakou.aliyuncs.com/acs/git-sync:v3.3.5";
  } else if (p.sync_mode == "rsync" && p.sync_image.empty()) {
    p.sync_image = "registry.cn-zhangjiakou.aliyuncs.com/acs/rsync:v3.1.0-aliyun";
  }
}

void plan_tensorboard(const SubmitOptions& o, Plan& p) {
  p.tensorboard = o.tensorboard;
  p.logdir = o.logdir;
  p.tensorboard_image = o.tensorboard_image.empty() ? "registry.cn-zhangjiakou.aliyuncs.com/acs/tensorflow:1.12.0-devel"
                                                    : o.tensorboard_image;
  if (!p.tensorboard) return;
  // Arena passes a logdir with a scheme (oss://, hdfs://, s3://, gs://) to TensorBoard as it
  // is: TensorBoard reads such stores itself, nothing is mounted.
  static const std::regex remote("[a-z][a-z0-9+.-]*://.+");
  p.logdir_remote = std::regex_match(p.logdir, remote);
  if (!p.logdir_remote && (p.logdir.empty() || p.logdir[0] != '/'))
    throw UsageError("invalid --logdir " + dq(p.logdir) + ": use an absolute path or a URL such as oss://bucket/logs");
  p.logdir_on_data = !p.logdir_remote && std::any_of(p.data.begin(), p.data.end(),
                                                     [&](const DataMount& d) { return under(p.logdir, d.path); });
}

}  // namespace

void plan_volumes(const SubmitOptions& o, std::vector<ConfigDir> config_dirs, Plan& p) {
  std::set<std::string> pvcs;
  std::set<std::string> paths;
  for (const auto& d : o.data) {
    DataMount m = parse_data(d);
    if (!pvcs.insert(m.pvc).second) throw UsageError("--data names PVC " + dq(m.pvc) + " twice");
    if (!paths.insert(m.path).second) throw UsageError("--data mounts two volumes at " + dq(m.path));
    p.data.push_back(m);
  }
  for (const auto& d : o.data_dirs) {
    HostMount h = parse_data_dir(d);
    if (!paths.insert(h.path).second) throw UsageError("--data-dir mounts two volumes at " + dq(h.path));
    p.data_dirs.push_back(h);
  }
  p.config_dirs = std::move(config_dirs);
  for (const auto& c : p.config_dirs)
    if (!paths.insert(c.path).second) throw UsageError("--config-file mounts a volume at " + dq(c.path) + " too");
  plan_sync(o, p);
  plan_tensorboard(o, p);
}

}  // namespace trainctl::submit
