#!/usr/bin/env bash
# Runs a scenario and opens its report.html in headless Chromium, driven through the DevTools
# protocol on a pipe (lib_chromium_page.sh). Fails on any console message, script error, failed
# load or request for anything but the page itself, and unless the live DOM holds the timeline
# SVG, both charts, the tables and the route-health tables (per outage and for the whole run).
# Exit 77 (ctest: skipped) when chromium is missing, unless CI is set: then it fails.
# usage: check_report_html.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_report_html.sh NSSIM SCENARIO}
scenario=${2:?usage: check_report_html.sh NSSIM SCENARIO}
tag=report_html
# shellcheck source-path=SCRIPTDIR source=lib_chromium_page.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_chromium_page.sh"
chromium_require

work=$(mktemp -d)
trap 'chromium_stop; rm -rf "$work"' EXIT

"$nssim" run "$scenario" --out "$work/run" >"$work/run.log" 2>&1
run_exit=$?
# Exit 1 only means an expectation failed; the report is written either way.
[ "$run_exit" -le 1 ] || fail "nssim run exited $run_exit: $(tail -n 3 "$work/run.log")"
page="$work/run/report.html"
[ -s "$page" ] || fail "nssim run wrote no $page"

page_open "file://$page"
# Counts in the live DOM; a drawn timeline has a height.
page_eval "(() => { const n = s => document.querySelectorAll(s).length;
  const t = document.querySelector('svg#timeline');
  return ['timeline=' + (t && t.getBoundingClientRect().height > 50 ? 1 : 0),
    'lanes=' + n('svg#timeline .lane-label'), 'detections=' + n('svg#timeline .detection'),
    'charts=' + n('svg#producer-routes, svg#sends'), 'outages=' + n('section.outage table.windows'),
    'outage_route_health=' + n('section.outage table.route-health'),
    'run_route_health=' + n('section#route-health table.route-health'),
    'expectations=' + n('table.expectations td')].join(' '); })()"
summary=$page_value
page_close

echo "report_html: $summary"
[[ $summary =~ timeline=1 ]] || fail "the timeline SVG is missing or has no height"
[[ $summary =~ charts=2 ]] || fail "the producer-route and sends charts are not both there"
[[ $summary =~ run_route_health=1 ]] || fail "the whole run's route-health table is missing"
for part in lanes detections outages outage_route_health expectations; do
  [[ $summary =~ $part=([1-9][0-9]*) ]] || fail "no $part in the rendered page"
done
echo "report_html: 1 passed, 0 failed"
