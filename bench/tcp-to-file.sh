#!/usr/bin/env bash
# Messages per second, loss, CPU per message and peak memory of sluiced for
# N lines (default 1,000,000) of 150 bytes over one TCP connection into one
# file, sent by syslog-ng's loggen (package syslog-ng-core).
#   bench/tcp-to-file.sh [COUNT]
# Needs ./quickstart build first. Prints one line of figures.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-1000000}
command -v loggen >/dev/null || { echo "needs loggen: apt-get install syslog-ng-core" >&2; exit 2; }

dir=$(mktemp -d /tmp/sluice-bench.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$dir/bench.conf" <<CONF
source s_net { tcp(ip("127.0.0.1") port($port) log-iw-size(100000)); };
destination d_file { file("$dir/out.log"); };
log { source(s_net); destination(d_file); flags(flow-control); };
CONF

"$top/local/sbin/sluiced" -F -f "$dir/bench.conf" -p "$dir/pid" -c "$dir/ctl" 2>"$dir/stderr" &
pid=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done

ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
cpu0=$(cpu)
start=$(date +%s.%N)
loggen -S -Q -s 150 -n "$count" -r 100000000 -I 600 127.0.0.1 "$port" >"$dir/loggen.out" 2>&1
lines=0
for _ in $(seq 600); do
  lines=$(wc -l < "$dir/out.log" 2>/dev/null || echo 0)
  [ "$lines" -ge "$count" ] && break
  sleep 0.05
done
end=$(date +%s.%N)
cpu1=$(cpu)
rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
awk -v n="$count" -v got="$lines" -v t0="$start" -v t1="$end" -v c0="$cpu0" -v c1="$cpu1" -v hz="$ticks" -v rss="$rss" 'BEGIN {
  secs = t1 - t0; cpu = (c1 - c0) / hz;
  printf "sent=%d delivered=%d loss=%d seconds=%.2f rate=%.0f msg/s cpu=%.2fs cpu_per_msg=%.2f us peak_rss=%d KiB\n",
         n, got, n - got, secs, got / secs, cpu, cpu / got * 1e6, rss }'
