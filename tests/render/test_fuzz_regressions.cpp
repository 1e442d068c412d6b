// Inputs fuzz_render found to crash trainctl, kept as ordinary tests.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "render/render.h"

using namespace trainctl;

TEST_CASE("a value that is not UTF-8 is a usage error naming the template", "[render][fuzz]") {
  // Found by fuzz_render: nlohmann's dump() threw type_error 316 out of render_text, e.g. for
  // --env K=$'\xda'. The API server only takes UTF-8 JSON, so such a value cannot be sent.
  const nlohmann::json values = {{"command", "python \xda\xda"}};
  CHECK_THROWS_AS(render::render_text("pytorch/job.yaml", "command: {{command}}\n", values), UsageError);
  CHECK_THROWS_WITH(render::render_text("pytorch/job.yaml", "command: {{command}}\n", values),
                    Catch::Matchers::Contains("pytorch/job.yaml") && Catch::Matchers::Contains("UTF-8"));
  // Valid UTF-8 still renders byte for byte.
  const auto objects = render::render_objects("t", "command: {{command}}\n", {{"command", "caf\xc3\xa9"}});
  REQUIRE(objects.size() == 1);
  CHECK(objects[0]["command"] == "caf\xc3\xa9");
}
