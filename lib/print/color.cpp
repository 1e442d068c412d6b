#include "print/color.h"

namespace trainctl::print {

std::string paint(std::string_view text, Color color) {
  const char* code = nullptr;
  switch (color) {
    case Color::None:
      return std::string(text);
    case Color::Green:
      code = "\x1b[32m";
      break;
    case Color::Yellow:
      code = "\x1b[33m";
      break;
    case Color::Red:
      code = "\x1b[31m";
      break;
    case Color::Dim:
      code = "\x1b[2m";
      break;
    case Color::Bold:
      code = "\x1b[1m";
      break;
  }
  return std::string(code) + std::string(text) + "\x1b[0m";
}

Color status_color(std::string_view s) {
  if (s == "RUNNING" || s == "Running") return Color::Green;
  if (s == "PENDING" || s == "QUEUING" || s == "SUSPENDED" || s == "SUBMITTED" || s == "Pending" ||
      s == "ContainerCreating" || s == "PodInitializing" || s == "Terminating" || s == "TERMINATING" ||
      s.substr(0, 5) == "Init:")
    return Color::Yellow;
  if (s == "FAILED" || s == "Failed" || s == "Error" || s == "CrashLoopBackOff" || s == "ImagePullBackOff" ||
      s == "ErrImagePull" || s == "OOMKilled" || s == "notready" || s == "NotReady" || s == "Unknown" ||
      s == "UNKNOWN")
    return Color::Red;
  if (s == "SUCCEEDED" || s == "Succeeded" || s == "Completed") return Color::Dim;
  return Color::None;
}

}  // namespace trainctl::print
