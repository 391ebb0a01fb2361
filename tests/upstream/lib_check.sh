# Sourced by the upstream checks once they set $check_name: `skip REASON` exits 77 (ctest's
# skipped) when java, mvn or the artifacts are missing, and fails under CI=true, where they must
# be there; `need_tools TOOL...` skips unless each is on the PATH; `fetch_artifacts WORK LINE...`
# fetches each line's artifacts (scripts/upstream.sh fetch), Maven's output shown only on failure
# (its quiet mode still writes colour resets with no newline), and skips, WORK removed, when they
# cannot be fetched.
skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "$check_name: cannot run under CI=true: $*"
    exit 1
  fi
  echo "$check_name: skipped: $*"
  exit 77
}
need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh --tests installs it)"
  done
}
fetch_artifacts() {
  local work=$1
  shift
  bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/upstream.sh" fetch "$@" >"$work/fetch.log" 2>&1 || {
    cat "$work/fetch.log"
    rm -rf "$work"
    skip "the upstream artifacts could not be fetched"
  }
}
