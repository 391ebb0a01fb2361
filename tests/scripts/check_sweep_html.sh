#!/usr/bin/env bash
# Builds the three multi-seed pages of a scenario (sweep.html of a 20-seed sweep, of a 3-seed x
# 2-point grid sweep, and compare.html of a 10-seed A/B compare) and opens each in headless
# Chromium (lib_chromium_page.sh). Each page fails on any console message, script error, failed
# load or request for anything but the page itself (compare.html's links to a/ and b/sweep.html
# are links, never fetched), and unless its live DOM holds what it is for: outage 0's histograms
# and a replay command for each worst seed; the grid's line charts; the CDFs of both sides and the
# "What changed" rows. Those pages are what a reader of a sweep sees; nothing else renders them.
# Exit 77 (ctest: skipped) when chromium is missing, unless CI is set: then it fails.
# usage: check_sweep_html.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_sweep_html.sh NSSIM SCENARIO}
scenario=${2:?usage: check_sweep_html.sh NSSIM SCENARIO}
tag=sweep_html
# shellcheck source-path=SCRIPTDIR source=lib_chromium_page.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_chromium_page.sh"
chromium_require

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
poll='producers[0].config.pollNameServerInterval'

# at_least KEY MIN: KEY=N in $summary with N >= MIN.
at_least() {
  if ! [[ " $summary " =~ \ $1=([0-9]+)\  ]] || [ "${BASH_REMATCH[1]}" -lt "$2" ]; then
    fail "$1 is not at least $2 in the rendered page"
  fi
}
# same KEY1 KEY2: both in $summary with equal values.
same() {
  local a=""
  [[ " $summary " =~ \ $1=([0-9]+)\  ]] && a=${BASH_REMATCH[1]}
  if ! [[ " $summary " =~ \ $2=([0-9]+)\  ]] || [ "$a" != "${BASH_REMATCH[1]}" ]; then
    fail "$1 differs from $2 in the rendered page"
  fi
}
# check NAME PAGE JS CHECKS NSSIM_ARGS...: runs nssim (exit 1 only means an expectation failed),
# opens PAGE, evaluates JS into $summary and runs the function CHECKS. Each page in a subshell with
# its own browser, so that a failure still lets the other pages count.
check() {
  if (
    tag="sweep_html: $1" page=$2 js=$3 checks=$4
    shift 4
    trap chromium_stop EXIT
    log=$(mktemp "$work/nssim.XXXXXX")
    "$nssim" "$@" >"$log" 2>&1 </dev/null
    code=$?
    [ "$code" -le 1 ] || fail "nssim $1 exited $code: $(tail -n 1 "$log")"
    [ -s "$page" ] || fail "nssim $1 wrote no $page"
    page_open "file://$page"
    page_eval "$js"
    summary=$page_value
    page_close
    echo "$tag: $summary"
    "$checks"
  ); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
# Drawn SVGs have a height, drawn lines a length; rows are table rows with cells.
helpers="const q = (s, e = document) => [...e.querySelectorAll(s)];
  const drawn = e => e.getBoundingClientRect().height > 50;
  const long = p => p.getTotalLength() > 0;
  const rows = t => t ? q('tr', t).filter(r => r.querySelector('td')).length : 0;"

sweep_js="(() => { $helpers
  const hist = q('svg[id^=\"hist-o0-\"]').filter(s => drawn(s) && s.querySelector('rect.sw-bar'));
  const worst = document.querySelector('table.worst');
  const replay = worst ? q('code', worst).filter(c => /nssim run .* --seed [0-9]+/.test(c.textContent)) : [];
  return ['histograms=' + hist.length, 'worst_rows=' + rows(worst), 'replays=' + replay.length,
    'figures=' + rows(document.querySelector('table.figures')),
    'expectations=' + q('section#expectations').length].join(' '); })()"
sweep_checks() {
  at_least histograms 3
  at_least replays 1
  same replays worst_rows
  at_least figures 1
  at_least expectations 1
}
check sweep.html "$work/sweep/sweep.html" "$sweep_js" sweep_checks \
  sweep "$scenario" --seeds 20 -j 2 --out "$work/sweep"

grid_js="(() => { $helpers
  const grid = q('svg[id^=\"grid-\"]');
  const charts = grid.filter(s => drawn(s) && q('path.sw-line', s).some(long));
  return ['grid_svgs=' + grid.length, 'grid_charts=' + charts.length,
    'points=' + rows(document.querySelector('table.points')),
    'histograms=' + q('svg[id^=\"hist-o0-\"]').filter(drawn).length].join(' '); })()"
grid_checks() {
  at_least grid_charts 1
  same grid_charts grid_svgs
  at_least points 2
  at_least histograms 3
}
check "grid sweep.html" "$work/grid/sweep.html" "$grid_js" grid_checks \
  sweep "$scenario" --seeds 3 --grid "$poll=5000,30000" -j 2 --out "$work/grid"

compare_js="(() => { $helpers
  const cdf = q('svg[id^=\"cdf-\"]');
  const sides = cdf.filter(s => { const a = q('path.side-a', s), b = q('path.side-b', s);
    return drawn(s) && a.length === 1 && b.length === 1 && a.concat(b).every(long); });
  const h = q('h2').find(e => e.textContent.trim() === 'What changed');
  const t = h && h.nextElementSibling && h.nextElementSibling.matches('table') ? h.nextElementSibling : null;
  return ['cdf_svgs=' + cdf.length, 'cdfs=' + sides.length, 'changed_rows=' + rows(t),
    'links=' + q('a[href=\"a/sweep.html\"], a[href=\"b/sweep.html\"]').length].join(' '); })()"
compare_checks() {
  at_least cdfs 3
  same cdfs cdf_svgs
  at_least changed_rows 1
  at_least links 2
  for side in a b; do
    [ -s "$work/compare/$side/sweep.html" ] || fail "the page links $side/sweep.html, which is not there"
  done
}
check compare.html "$work/compare/compare.html" "$compare_js" compare_checks \
  compare "$scenario" --a "$poll=30000" --b "$poll=5000" --seeds 10 -j 2 --out "$work/compare"

echo "sweep_html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
