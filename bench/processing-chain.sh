#!/usr/bin/env bash
# Messages per second and CPU per message of sluiced for N lines (default
# 200,000) of RFC 3164 with JSON bodies over one TCP connection, through
#   chain: json-parser() -> date-parser() on a parsed field -> a comparison
#          filter -> a file written with $(format-json --scope nv-pairs --key json.*)
#   plain: straight into a file with the default template
# and the ratio of the two. The input is built by bench/json-lines.py
# before the clock starts (loggen cannot send custom bodies).
#   bench/processing-chain.sh [COUNT]
# Needs ./quickstart build first. Prints one line per path and the ratio.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-200000}
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }

dir=$(mktemp -d /tmp/sluice-bench.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# run NAME LOG-BODY: starts sluiced with a tcp source and the log path's
# body, sends the lines, waits for all of them in the output, stops it.
run() {
  local name=$1 body=$2 port out
  port=$(free_port)
  out=$dir/$name.out
  cat > "$dir/$name.conf" <<CONF
source s_net { tcp(ip("127.0.0.1") port($port) log-iw-size(100000)); };
destination d_file { file("$out" $3); };
log { source(s_net); $body destination(d_file); flags(flow-control); };
CONF
  "$top/local/sbin/sluiced" -F -f "$dir/$name.conf" -p "$dir/$name.pid" -c "$dir/$name.ctl" 2>"$dir/$name.stderr" &
  pid=$!
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

  local ticks cpu0 cpu1 start end lines=0
  ticks=$(getconf CLK_TCK)
  cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  start=$(python3 "$top/bench/json-lines.py" "$count" "$port")
  for _ in $(seq 1200); do
    lines=$(wc -l < "$out" 2>/dev/null || echo 0)
    [ "$lines" -ge "$count" ] && break
    sleep 0.05
  done
  end=$(date +%s.%N)
  cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  awk -v name="$name" -v n="$count" -v got="$lines" -v t0="$start" -v t1="$end" -v c0="$cpu0" -v c1="$cpu1" -v hz="$ticks" 'BEGIN {
    secs = t1 - t0; cpu = (c1 - c0) / hz;
    printf "%s: sent=%d delivered=%d seconds=%.2f rate=%.0f msg/s cpu=%.2fs cpu_per_msg=%.2f us\n",
           name, n, got, secs, got / secs, cpu, cpu / got * 1e6 }' | tee "$dir/$name.result"
}

run plain "" ""
run chain 'parser { json-parser(prefix("json.")); }; parser { date-parser(template("${json.ts}") format("%FT%T%z")); }; filter { "${json.level}" eq "error"; };' \
    'template("$(format-json --scope nv-pairs --key json.*)\n")'

awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[FILENAME, kv[1]] = kv[2] } }
     END {
       p = ARGV[1]; c = ARGV[2];
       printf "chain/plain: rate %.2fx, cpu per message %.2fx\n",
              v[c, "rate"] / v[p, "rate"], v[c, "cpu_per_msg"] / v[p, "cpu_per_msg"] }' \
    "$dir/plain.result" "$dir/chain.result"
