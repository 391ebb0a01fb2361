# shellcheck shell=bash disable=SC2154,SC2034 # tag and work come from, page_value goes to, the caller
# Sourced by the check_*_html.sh scripts: opens one local page in headless Chromium, driven
# through the DevTools protocol on a pipe (--remote-debugging-pipe: NUL-terminated JSON on fds 3
# and 4, no extra package), evaluates expressions in its live DOM, and on close fails on any
# console message, script error, failed load or request for anything but the page itself.
# The caller sets `tag` (message prefix) and `work` (a scratch directory), calls chromium_require
# before anything else, and traps EXIT with chromium_stop. Every wait is bounded.
#   page_open URL    start a browser and load URL (one page per browser)
#   page_eval JS     JS evaluates to a string without double quotes; it lands in $page_value
#   page_close       close the browser, then fail on anything the page logged or requested
browser=${CHROMIUM:-chromium}
browser_pid=""

fail() {
  echo "$tag: $*"
  exit 1
}

# Exit 77 (ctest: skipped) when the browser is missing, unless CI is set: then exit 1.
chromium_require() {
  command -v "$browser" >/dev/null 2>&1 && return 0
  if [ -n "${CI:-}" ] && [ "${CI}" != "false" ]; then
    echo "$tag: $browser not found and CI=$CI: run scripts/install-deps.sh"
    exit 1
  fi
  echo "$tag: skipped: $browser not found (install it with scripts/install-deps.sh)"
  exit 77
}

chromium_stop() {
  if [ -n "$browser_pid" ] && kill -0 "$browser_pid" 2>/dev/null; then kill "$browser_pid"; fi
  browser_pid=""
}

last_id=0
reply=""
# send METHOD PARAMS_JSON [SESSION_ID]
send() {
  last_id=$((last_id + 1))
  local session=""
  [ -z "${3:-}" ] || session=",\"sessionId\":\"$3\""
  printf '{"id":%d,"method":"%s","params":%s%s}\0' "$last_id" "$1" "$2" "$session" >&5
}
# read_messages SECONDS [PATTERN]: logs each message to protocol.log until one matches the glob
# PATTERN (status 0, message in $reply), the pipe closes or SECONDS have passed in all (status 1).
read_messages() {
  local message deadline=$((SECONDS + $1)) left
  while left=$((deadline - SECONDS)) && [ "$left" -gt 0 ] &&
    IFS= read -r -d '' -t "$left" message <&6; do
    printf '%s\n' "$message" >>"$page_dir/protocol.log"
    # shellcheck disable=SC2053
    if [ -n "${2:-}" ] && [[ $message == $2 ]]; then
      reply=$message
      return 0
    fi
  done
  return 1
}
read_until() {
  read_messages 30 "$1" ||
    fail "no $2 from $browser within 30 s; its log ends: $(tail -n 3 "$page_dir/browser.log")"
}
call() {
  send "$@"
  read_until "{\"id\":$last_id,*" "reply to $1"
  [[ $reply != *'"error":{'* ]] || fail "$1 failed: $reply"
}

page_open() {
  page_url=$1
  page_dir=$(mktemp -d "$work/chromium.XXXXXX") || fail "no scratch directory in $work"
  mkfifo "$page_dir/to_browser" "$page_dir/from_browser"
  "$browser" --headless --no-sandbox --disable-gpu --remote-debugging-pipe \
    --user-data-dir="$page_dir/profile" --no-first-run --disable-extensions \
    --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" about:blank \
    3<"$page_dir/to_browser" 4>"$page_dir/from_browser" 2>"$page_dir/browser.log" &
  browser_pid=$!
  exec 5>"$page_dir/to_browser" 6<"$page_dir/from_browser"

  call Target.createTarget '{"url":"about:blank"}'
  [[ $reply =~ \"targetId\":\"([^\"]+)\" ]] || fail "no targetId in $reply"
  call Target.attachToTarget "{\"targetId\":\"${BASH_REMATCH[1]}\",\"flatten\":true}"
  [[ $reply =~ \"sessionId\":\"([^\"]+)\" ]] || fail "no sessionId in $reply"
  session=${BASH_REMATCH[1]}
  for domain in Runtime Log Network Page; do call "$domain.enable" '{}' "$session"; done
  call Page.navigate "{\"url\":\"$page_url\"}" "$session"
  read_until '*"method":"Page.loadEventFired"*' "load event"
}

page_eval() {
  local js=${1//\\/\\\\}
  js=${js//\"/\\\"}
  js=${js//$'\n'/ }
  js=${js//$'\t'/ }
  call Runtime.evaluate "{\"expression\":\"$js\",\"returnByValue\":true}" "$session"
  [[ $reply =~ \"value\":\"([^\"]*)\" ]] || fail "no DOM summary in $reply"
  page_value=${BASH_REMATCH[1]}
}

page_close() {
  send Browser.close '{}'
  # Whatever arrives before the pipe closes still counts (late console messages, failed loads).
  read_messages 10
  for _ in $(seq 50); do kill -0 "$browser_pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$browser_pid" 2>/dev/null && kill -KILL "$browser_pid"
  wait "$browser_pid"
  browser_pid=""
  exec 5>&- 6<&-

  local problems requests
  problems=$(grep -E '"method":"(Runtime\.exceptionThrown|Runtime\.consoleAPICalled|Log\.entryAdded|Network\.loadingFailed)"' \
    "$page_dir/protocol.log" | cut -c1-300)
  [ -z "$problems" ] || fail "the page logged errors or failed loads:
$problems"
  requests=$(grep -o '"method":"Network.requestWillBeSent".*' "$page_dir/protocol.log" |
    grep -o '"request":{"url":"[^"]*"' | sed 's/.*"url":"//; s/"$//' | sort -u)
  [ "$requests" = "$page_url" ] || fail "the page requested more than itself (or nothing at all):
$requests"
}
