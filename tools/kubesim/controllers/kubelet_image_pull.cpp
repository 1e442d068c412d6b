// An image that cannot be pulled, as kubelet reports it: pkg/kubelet/images/image_manager.go
// (events Pulling, Failed "Failed to pull image %q: %v", BackOff "Back-off pulling image %q")
// and kuberuntime_container.go startContainer (event Failed "Error: %v" with ErrImagePull or
// ImagePullBackOff); the container waits with that reason.
#include "kubesim/controllers/kubelet.h"

namespace kubesim {

bool Kubelet::fail_image_pull(const json& pod, Run& run) {
  const auto& spec = pod.value("spec", json::object());
  std::string image;
  for (const auto& c : spec.value("containers", json::array()))
    if (c.value("image", "").find(kImagePullErrorMarker) != std::string::npos) image = c.value("image", "");
  if (image.empty()) return false;
  const bool back_off = run.stage == Stage::ImagePull;
  const std::string quoted = "\"" + image + "\"";
  std::string reason, message;
  if (back_off) {
    reason = "ImagePullBackOff";
    message = "Back-off pulling image " + quoted;
    m_ctx.record_event(pod, "Normal", "BackOff", message, "kubelet");
  } else {
    reason = "ErrImagePull";
    // containerd's answer for a reference that does not resolve.
    message = "rpc error: code = NotFound desc = failed to pull and unpack image " + quoted +
              ": failed to resolve reference " + quoted + ": " + image + ": not found";
    m_ctx.record_event(pod, "Normal", "Pulling", "Pulling image " + quoted, "kubelet");
    m_ctx.record_event(pod, "Warning", "Failed", "Failed to pull image " + quoted + ": " + message,
                       "kubelet");
  }
  m_ctx.record_event(pod, "Warning", "Failed", "Error: " + reason, "kubelet");
  m_ctx.patch(*m_ctx.pods, meta_ns(pod), meta_name(pod), [&](json& obj) {
    json& st = obj["status"];
    if (!st.contains("containerStatuses")) return;
    for (auto& cs : st["containerStatuses"])
      if (cs.value("image", "") == image)
        cs["state"] = {{"waiting", {{"reason", reason}, {"message", message}}}};
  });
  run.stage = Stage::ImagePull;
  run.stage_end = back_off ? kNever : m_ctx.now() + m_ctx.options.container_creating;
  return true;
}

}  // namespace kubesim
