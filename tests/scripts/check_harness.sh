# Sourced by the scripted end-to-end checks (after they set $nssim): a scratch folder removed on
# exit, pass/fail counters, `run` and the closing line.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

pass() { passed=$((passed + 1)); }
# fail NAME: counts a failure and shows the end of the last run's output.
fail() {
  failed=$((failed + 1))
  echo "FAILED $1"
  [ -f "$work/stdout" ] && sed 's/^/  stdout: /' "$work/stdout" | tail -n 40
  [ -f "$work/stderr" ] && sed 's/^/  stderr: /' "$work/stderr" | tail -n 10
}
# run ARGS...: runs nssim with stdout/stderr in files; sets $code.
run() {
  "$nssim" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null
  code=$?
}
# finish WHAT: the closing line; the script's exit status is whether every check passed.
finish() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
