#!/usr/bin/env bash
# Smoke tests of the nssim command line: help, stdin, and the one-line errors with exit code 2.
# usage: check_cli.sh NSSIM EXAMPLE_JSONL
set -uo pipefail
nssim=$1 example=$2
passed=0 failed=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# expect NAME EXIT STDERR_TEXT(or -) STDOUT_EMPTY(yes/no) -- ARGS...
expect() {
  local name=$1 want_exit=$2 want_err=$3 want_empty=$4
  shift 5
  "$nssim" "$@" >"$out" 2>"$err" </dev/null
  local code=$? ok=yes
  [ "$code" -eq "$want_exit" ] || ok=no
  [ "$want_err" = "-" ] || [ "$(cat "$err")" = "$want_err" ] || ok=no
  if [ "$want_empty" = yes ]; then [ ! -s "$out" ] || ok=no; else [ -s "$out" ] || ok=no; fi
  if [ "$ok" = yes ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED $name: exit $code; stderr: $(cat "$err")"
  fi
}

expect help 0 - no -- --help
expect replay-help 0 - no -- replay --help
expect no-subcommand 2 - yes --  # its usage on stderr (check_commands.sh bare-nssim)
expect unknown-flag 2 "nssim: The following argument was not expected: --bogus" yes -- replay --bogus
expect missing-file 2 "nssim replay: cannot open 'no/such/file.jsonl': No such file or directory" yes \
  -- replay no/such/file.jsonl
dir=$(mktemp -d)
expect directory 2 "nssim replay: '$dir' is a directory, expected a JSON Lines file" yes -- replay "$dir"
rmdir "$dir"
expect zero-scan-interval 2 "nssim replay: --config: scanNotActiveBrokerInterval: must be > 0" yes \
  -- replay --config scanNotActiveBrokerInterval=0 "$example"
expect zero-queue-capacity 2 "nssim replay: --config: unRegisterBrokerQueueCapacity: must be > 0" yes \
  -- replay --config unRegisterBrokerQueueCapacity=-1 "$example"
expect bad-profile 2 "nssim replay: --profile: expected 4.9 or 5.x, got '6.0'" yes -- \
  replay --profile 6.0 "$example"
expect bad-config-form 2 "nssim replay: --config: expected NAME=VALUE, got 'orderMessageEnable'" yes \
  -- replay --config orderMessageEnable "$example"
expect bad-config-name 2 "nssim replay: --config: unknown NamesrvConfig field 'enableTopicList' for profile 4.9" \
  yes -- replay --profile 4.9 --config enableTopicList=false "$example"
expect bad-config-value 2 "nssim replay: --config: waitSecondsForService: expected an integer, got 'soon'" \
  yes -- replay --config waitSecondsForService=soon "$example"
expect good-config 0 "" no -- replay --config orderMessageEnable=true --config waitSecondsForService=1 "$example"

# stdin: one line in, one line out
line=$(echo '{"code": 106}' | "$nssim" replay -)
if [ "$line" = '{"code":0,"remark":null,"extFields":{},"body":{"brokerAddrTable":{},"clusterAddrTable":{}}}' ]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAILED stdin: $line"
fi

# a full disk: the answers cannot be written, which must not pass for success
if [ -w /dev/full ]; then
  "$nssim" replay "$example" >/dev/full 2>"$err"
  code=$?
  if [ "$code" -eq 2 ] && [ "$(cat "$err")" = "nssim replay: cannot write the output: No space left on device" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED full-disk: exit $code; stderr: $(cat "$err")"
  fi
fi

echo "nssim cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
