// sweep.md: the headline rows per outage (with each seed's longest lost route) and the whole run's
// route windows, each a row of the figure's distribution over the seeds.
#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "reports/sweep/sweep_files.h"

namespace nssim::reports {
namespace {

using testing::has;

const std::string kCommand =
    "`nssim run scenarios/broker_poweroff.json --profile 5.x --set 'producers[0].rate_per_s=2' "
    "--seed ";

TEST(SweepMarkdown, EachOutageListsItsLongestLostRoute) {
  const std::string text = render_sweep_markdown(testing::fixture_json("sweep_single.json"));
  EXPECT_TRUE(has(text,
                  "| longest lost route the outage opened | 1000 | 0 | 2.1 s | 15.8 s | "
                  "27.0 s | 29.6 s | 30.0 s |  |  | " +
                      kCommand + "408` |\n"));
}

TEST(SweepMarkdown, WholeRunRouteWindowsHaveTheirOwnTable) {
  const std::string text = render_sweep_markdown(testing::fixture_json("sweep_single.json"));
  const auto at = text.find("#### Whole run: route windows\n\n");
  ASSERT_NE(at, std::string::npos);
  const std::string table = text.substr(at, text.find("<details>", at) - at);
  EXPECT_TRUE(has(table,
                  "| longest stale route | 997 | 3 | 100.2 s | 128.0 s | 139.0 s | "
                  "148.0 s | 161.8 s |  |  | " +
                      kCommand + "771` |\n"));
  EXPECT_TRUE(has(table, "| longest lost route | 1000 | 0 | "));
  EXPECT_TRUE(has(table,
                  "| longest missing broker at a NameServer | 1000 | 0 | 2 ms | 3 ms | "
                  "5 ms | 8 ms | 9 ms |  |  | " +
                      kCommand + "77` |\n"));
}

TEST(SweepMarkdown, SweepWithoutRouteWindowsHasNoWholeRunTable) {
  auto sweep = testing::fixture_json("sweep_single.json");
  for (const char* kind : {"stale", "lost", "missing"}) {
    sweep["points"][0]["figures"].erase(std::string("route_health.") + kind + ".max");
  }
  EXPECT_FALSE(has(render_sweep_markdown(sweep), "Whole run"));
}

}  // namespace
}  // namespace nssim::reports
