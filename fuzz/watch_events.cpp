// Fuzzes the watch stream decoding of submit --wait: the list that starts a watch, then
// watch event lines (ADDED/MODIFIED/DELETED/BOOKMARK/ERROR with a job or pod object, and
// anything else a broken stream can carry), for every job kind and both --wait modes. The
// input is a sequence of HTTP responses (fake_client.h): list bodies and watch bodies, one
// event per line. Waits end in a job status or trainctl's own errors, never in a crash.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/log.h"
#include "fake_client.h"
#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "submit/wait.h"

using namespace trainctl;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  log::set_level(log::Level::Error);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto& kinds = jobs::all_kinds();
  const jobs::JobKind& kind = kinds[data[0] % kinds.size()];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

  submit::WaitOptions o;
  o.until_finished = (data[0] & 0x80) != 0;
  o.expected_pods = 1 + (data[0] >> 4) % 4;
  o.clock = [] { return std::chrono::system_clock::time_point(std::chrono::seconds(1767225600)); };
  std::string last;
  o.on_status = [&](const std::string& line) { last = line; };
  try {
    fuzz::FakeClient client(input);
    (void)jobs::status_name(submit::wait_for_job(client, kind, "default", "mnist", o));
  } catch (const Error&) {
  }
  return 0;
}
