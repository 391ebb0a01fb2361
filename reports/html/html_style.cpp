// File: the HTML report's inline style sheet. Colours are the Okabe-Ito palette (safe for the
// common colour-vision deficiencies); shapes and words carry meaning too, never colour alone.
#include "reports/html/html_sections.h"

namespace nssim::reports::html {

const char* html_style_sheet() {
  return R"CSS(:root { color-scheme: light; }
body { margin: 0; background: #fff; color: #1b1b1b;
  font: 14px/1.45 system-ui, "Segoe UI", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1400px; margin: 0 auto; padding: 12px 24px 32px; }
h1 { font-size: 24px; margin: 8px 0 2px; }
h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
h3 { font-size: 15px; margin: 18px 0 4px; }
.meta { color: #555; margin: 0 0 8px; }
.description { max-width: 75em; color: #333; }
.verdict { display: inline-block; margin: 4px 0; padding: 4px 12px; border: 2px solid;
  border-radius: 4px; }
.verdict.pass { border-color: #009E73; background: #e6f5ef; }
.verdict.fail { border-color: #D55E00; background: #fbebe2; }
.verdict.none { border-color: #999; background: #f3f3f3; }
.note { color: #444; margin: 4px 0; }
figure { margin: 0 0 10px; }
.figure-caption { color: #444; margin: 2px 0 0; font-size: 13px; }
svg { display: block; width: 100%; height: auto; }
svg text { font-family: inherit; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 6px 0 10px; font-size: 13px; }
.legend .group { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 12px; }
.legend .item { white-space: nowrap; }
svg.swatch { display: inline-block; width: 14px; height: 14px; vertical-align: -2px;
  margin-right: 4px; }
.legend-shade { fill-opacity: 0.18; stroke: #999; }
.lane-label { font-size: 13px; font-weight: 600; text-anchor: end; fill: #222; }
.row-label { font-size: 11px; text-anchor: end; fill: #555; }
.tick { font-size: 11px; text-anchor: middle; fill: #444; }
.value { font-size: 10px; text-anchor: end; fill: #555; }
.fault-label { font-size: 11px; font-weight: 600; fill: #333; }
.fault-label.end { text-anchor: end; }
.predicted-label { font-size: 10px; fill: #8a3d6d; }
.empty-note { font-size: 11px; fill: #666; }
.grid { stroke: #ececec; }
.guide { stroke: #e4e4e4; stroke-dasharray: 2 3; }
.axis { stroke: #999; }
.fault-shade { fill: #000; fill-opacity: 0.07; }
.fault-line { stroke: #333; stroke-width: 1.3; stroke-dasharray: 5 4; }
.fault-line.admin { stroke: #0072B2; }
.state-up { fill: #009E73; }
.state-paused { fill: #E69F00; }
.state-down { fill: #D55E00; }
.state-not_started { fill: #e3e3e3; }
.state-other { fill: #999; }
.state-text { font-size: 10.5px; fill: #fff; }
.state-text.dark { fill: #555; }
.in-route { fill: #56B4E9; }
.predicted { fill: #CC79A7; fill-opacity: 0.2; stroke: #CC79A7; stroke-dasharray: 3 2; }
.detection { stroke: #000; stroke-width: 1; }
.path-idle_close { fill: #0072B2; }
.path-scan_expiry { fill: #F0E442; }
.path-connection_close { fill: #D55E00; }
.path-connection_exception { fill: #000; }
.path-unregister { fill: #009E73; }
.path-other { fill: #fff; }
.stale { fill: #D55E00; fill-opacity: 0.6; }
.lost { fill: #009E73; fill-opacity: 0.6; }
.missing-band { fill: #E69F00; fill-opacity: 0.22; stroke: #E69F00; stroke-width: 1; }
.missing-stripes { stroke: #E69F00; stroke-width: 10; stroke-dasharray: 1.5 2.5; }
.ok { fill: #0072B2; fill-opacity: 0.55; }
.cause-send_timeout_budget { fill: #D55E00; }
.cause-request_timeout { fill: #CC79A7; }
.cause-connect_timeout { fill: #E69F00; }
.cause-connect_refused { fill: #F0E442; }
.cause-connection_reset { fill: #009E73; }
.cause-no_route { fill: #000; }
.cause-broker_error { fill: #56B4E9; }
.cause-other { fill: #999; }
.measured-range { fill: #444; }
.producer-tick { stroke: #000; stroke-width: 1.2; }
.tables { display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
table { border-collapse: collapse; margin: 6px 0; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding-bottom: 3px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f5f5f5; font-weight: 600; }
th.sub { font-weight: normal; padding-left: 20px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.good { color: #006e50; font-weight: 600; }
td.bad { color: #b03c00; font-weight: 700; }
code { font-size: 12.5px; }
footer { color: #666; font-size: 12px; margin-top: 30px; }
@media print {
  main { max-width: none; padding: 0; }
  section.outage, figure, table { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
}
path.broker-line { fill: none; stroke-width: 1.6; }
.broker-line-0 { stroke: #0072B2; } .broker-line-1 { stroke: #D55E00; }
.broker-line-2 { stroke: #009E73; } .broker-line-3 { stroke: #CC79A7; }
.broker-line-4 { stroke: #E69F00; } .broker-line-5 { stroke: #56B4E9; }
.broker-line-6 { stroke: #000000; } .broker-line-7 { stroke: #999999; }
text.broker-label { stroke: none; font-size: 12px; font-weight: 600; }
text.broker-line-0 { fill: #0072B2; } text.broker-line-1 { fill: #D55E00; }
text.broker-line-2 { fill: #009E73; } text.broker-line-3 { fill: #CC79A7; }
text.broker-line-4 { fill: #E69F00; } text.broker-line-5 { fill: #56B4E9; }
text.broker-line-6 { fill: #000000; } text.broker-line-7 { fill: #999999; }
)CSS";
}

}  // namespace nssim::reports::html
