#!/bin/sh
# E3 from a cold start as the issue's tester ran it (docs/benchmarks.md, "E3 from a cold start"):
# for each repeat, client count and row, a freshly started target server (HttpTargetServer, its own
# JVM, no request before the run) and one wrk run against GET /wait (a token check, a 1 s wait, a
# fixed reply), closed loop: every connection sends at once from the start and the next request
# when the answer came. One CSV line per run appended to --out. Only 127.0.0.1 is contacted.
#
#   sluice-bench/run-e3-wrk.sh [--rows "netty sluice:auto"] [--clients 400,1000,10000]
#       [--seconds 10] [--timeout 2] [--threads 2] [--repeats 3] [--path wait]
#       [--server-opts "-XX:AOTCache=..."] [--jar benchmarks.jar] [--out e3-wrk.csv] [--no-build]
#
# Needs wrk (Debian: apt-get install wrk). wrk's latency is from each request's send to its answer
# (it does not correct for coordinated omission; the paced Java client of run-e2e3.sh does).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rows="netty sluice:auto"
client_counts=400,1000,10000
seconds=10
timeout_s=2
threads=2
repeats=3
path=wait
server_opts=""
jar="$root/sluice-bench/target/benchmarks.jar"
out=e3-wrk.csv
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows=$2; shift 2 ;;
    --clients) client_counts=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --path) path=$2; shift 2 ;;
    --server-opts) server_opts=$2; shift 2 ;;
    --jar) jar=$2; build=0; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
if ! command -v wrk >/dev/null 2>&1; then
  echo "wrk is not installed: apt-get install wrk (Debian), or build it from github.com/wg/wrk" >&2
  exit 1
fi

. "$root/bin/find-java.sh"
sluice_find_java || exit 1
server_java="$JAVA_HOME/bin/java $server_opts"
. "$root/sluice-bench/target-server.sh"

commit=$(cd "$(dirname "$jar")" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -s "$out" ] || echo "date,commit,row,path,clients,repeat,seconds,timeout_s,requests,req_per_s,timeouts,connect,read,write,status,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,server_cpu_s,load1" >"$out"

# cpu_seconds PID: the user and system CPU the process took so far, in seconds.
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"
}

rep=1
while [ "$rep" -le "$repeats" ]; do
  for clients in $(echo "$client_counts" | tr , ' '); do
    for row in $rows; do
      target=$(echo "$row" | cut -d: -f1)
      strategy=$(echo "$row:" | cut -d: -f2)
      if [ "$target" = sluice ]; then
        start_server --target sluice --strategy "${strategy:-auto}"
      else
        start_server --target "$target"
      fi
      before=$(cpu_seconds "$server_pid")
      wrk -t"$threads" -c"$clients" -d"${seconds}s" --timeout "${timeout_s}s" \
        -s "$root/sluice-bench/wrk-report.lua" "http://127.0.0.1:$port/$path" >"$work/wrk.txt" 2>&1 || true
      after=$(cpu_seconds "$server_pid")
      stop_server
      fields=$(sed -n 's/^csv //p' "$work/wrk.txt")
      if [ -z "$fields" ]; then
        echo "wrk failed ($row, $clients clients):" >&2
        cat "$work/wrk.txt" >&2
        continue
      fi
      requests=$(echo "$fields" | cut -d, -f1)
      rps=$(awk "BEGIN { printf \"%.0f\", $requests / $seconds }")
      cpu=$(awk "BEGIN { printf \"%.2f\", $after - $before }")
      load=$(cut -d' ' -f1 /proc/loadavg)
      line="$(date -u +%Y-%m-%dT%H:%M:%SZ),$commit,$row,/$path,$clients,$rep,$seconds,$timeout_s,$requests,$rps,$(echo "$fields" | cut -d, -f2-),$cpu,$load"
      echo "$line" >>"$out"
      echo "$line"
      sleep 2 # let the sockets of the run close before the next
    done
  done
  rep=$((rep + 1))
done
