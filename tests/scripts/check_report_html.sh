#!/usr/bin/env bash
# Runs a scenario and opens its report.html in headless Chromium, driven through the DevTools
# protocol on a pipe (--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4, no extra
# package). Fails on any console message, script error, failed load or request for anything but
# the page itself, and unless the live DOM holds the timeline SVG, both charts and the tables.
# Exit 77 (ctest: skipped) when chromium is missing, unless CI is set: then it fails.
# usage: check_report_html.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_report_html.sh NSSIM SCENARIO}
scenario=${2:?usage: check_report_html.sh NSSIM SCENARIO}
browser=${CHROMIUM:-chromium}

if ! command -v "$browser" >/dev/null 2>&1; then
  if [ -n "${CI:-}" ] && [ "${CI}" != "false" ]; then
    echo "report_html: $browser not found and CI=$CI: run scripts/install-deps.sh"
    exit 1
  fi
  echo "report_html: skipped: $browser not found (install it with scripts/install-deps.sh)"
  exit 77
fi

work=$(mktemp -d)
browser_pid=""
cleanup() {
  if [ -n "$browser_pid" ] && kill -0 "$browser_pid" 2>/dev/null; then kill "$browser_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "report_html: $*"
  exit 1
}

"$nssim" run "$scenario" --out "$work/run" >"$work/run.log" 2>&1
run_exit=$?
# Exit 1 only means an expectation failed; the report is written either way.
[ "$run_exit" -le 1 ] || fail "nssim run exited $run_exit: $(tail -n 3 "$work/run.log")"
page="$work/run/report.html"
[ -s "$page" ] || fail "nssim run wrote no $page"
url="file://$page"

mkfifo "$work/to_browser" "$work/from_browser"
"$browser" --headless --no-sandbox --disable-gpu --remote-debugging-pipe \
  --user-data-dir="$work/profile" --no-first-run --disable-extensions \
  --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" about:blank \
  3<"$work/to_browser" 4>"$work/from_browser" 2>"$work/browser.log" &
browser_pid=$!
exec 5>"$work/to_browser" 6<"$work/from_browser"

last_id=0
reply=""
# send METHOD PARAMS_JSON [SESSION_ID]
send() {
  last_id=$((last_id + 1))
  local session=""
  [ -z "${3:-}" ] || session=",\"sessionId\":\"$3\""
  printf '{"id":%d,"method":"%s","params":%s%s}\0' "$last_id" "$1" "$2" "$session" >&5
}
# Reads messages, keeping each in protocol.log, until one matches the glob pattern.
read_until() {
  local message
  while IFS= read -r -d '' -t 30 message <&6; do
    printf '%s\n' "$message" >>"$work/protocol.log"
    # shellcheck disable=SC2053
    if [[ $message == $1 ]]; then
      reply=$message
      return 0
    fi
  done
  fail "no $2 from $browser within 30 s; its log ends: $(tail -n 3 "$work/browser.log")"
}
call() {
  send "$@"
  read_until "{\"id\":$last_id,*" "reply to $1"
  [[ $reply != *'"error":{'* ]] || fail "$1 failed: $reply"
}

call Target.createTarget '{"url":"about:blank"}'
[[ $reply =~ \"targetId\":\"([^\"]+)\" ]] || fail "no targetId in $reply"
call Target.attachToTarget "{\"targetId\":\"${BASH_REMATCH[1]}\",\"flatten\":true}"
[[ $reply =~ \"sessionId\":\"([^\"]+)\" ]] || fail "no sessionId in $reply"
session=${BASH_REMATCH[1]}
for domain in Runtime Log Network Page; do call "$domain.enable" '{}' "$session"; done
call Page.navigate "{\"url\":\"$url\"}" "$session"
read_until '*"method":"Page.loadEventFired"*' "load event"
# Counts in the live DOM; a drawn timeline has a height.
query="(() => { const n = s => document.querySelectorAll(s).length;
  const t = document.querySelector('svg#timeline');
  return ['timeline=' + (t && t.getBoundingClientRect().height > 50 ? 1 : 0),
    'lanes=' + n('svg#timeline .lane-label'), 'detections=' + n('svg#timeline .detection'),
    'charts=' + n('svg#stale-producers, svg#sends'), 'outages=' + n('section.outage table.windows'),
    'expectations=' + n('table.expectations td')].join(' '); })()"
query=${query//$'\n'/ }
call Runtime.evaluate "{\"expression\":\"$query\",\"returnByValue\":true}" "$session"
[[ $reply =~ \"value\":\"([^\"]*)\" ]] || fail "no DOM summary in $reply"
summary=${BASH_REMATCH[1]}
send Browser.close '{}'
# Whatever arrives before the pipe closes still counts (late console messages, failed loads).
while IFS= read -r -d '' -t 10 message <&6; do printf '%s\n' "$message" >>"$work/protocol.log"; done
wait "$browser_pid"
browser_pid=""

problems=$(grep -E '"method":"(Runtime\.exceptionThrown|Runtime\.consoleAPICalled|Log\.entryAdded|Network\.loadingFailed)"' \
  "$work/protocol.log" | cut -c1-300)
[ -z "$problems" ] || fail "the page logged errors or failed loads:
$problems"
requests=$(grep -o '"method":"Network.requestWillBeSent".*' "$work/protocol.log" |
  grep -o '"request":{"url":"[^"]*"' | sed 's/.*"url":"//; s/"$//' | sort -u)
[ "$requests" = "$url" ] || fail "the page requested more than itself (or nothing at all):
$requests"

echo "report_html: $summary"
[[ $summary =~ timeline=1 ]] || fail "the timeline SVG is missing or has no height"
[[ $summary =~ charts=2 ]] || fail "the stale-producer and sends charts are not both there"
for part in lanes detections outages expectations; do
  [[ $summary =~ $part=([1-9][0-9]*) ]] || fail "no $part in the rendered page"
done
echo "report_html: 1 passed, 0 failed"
