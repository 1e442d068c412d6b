// ANSI colours for terminal output. Only used when IOStreams::color() is true.
#pragma once

#include <string>
#include <string_view>

namespace trainctl::print {

enum class Color { None, Green, Yellow, Red, Dim, Bold };

std::string paint(std::string_view text, Color color);

// The colour of a status value: job statuses (RUNNING green, PENDING/QUEUING yellow,
// FAILED red, SUCCEEDED dim) and pod statuses as kubectl prints them (Running green,
// Pending/ContainerCreating/Init:... yellow, Error/CrashLoopBackOff/... red, Completed dim).
Color status_color(std::string_view status);

}  // namespace trainctl::print
