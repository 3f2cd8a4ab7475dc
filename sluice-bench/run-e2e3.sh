#!/bin/sh
# Runs benchmarks E2 and E3 (docs/benchmarks.md, "HTTP: E2 and E3"): for each row a target server
# (HttpTargetServer) in its own JVM, the load client (HttpLoadClient) in another, one CSV line per
# run appended to --out, then the server is stopped. Only 127.0.0.1 is ever contacted.
#
#   sluice-bench/run-e2e3.sh [--experiment e2|e3|all] [--rows "netty sluice:auto sluice:synchronous:300"]
#       [--paths nodelay,wait] [--clients 400,1000,10000] [--seconds 10] [--warm-up 5] [--timeout 10]
#       [--repeats 3] [--sync-queue 1000] [--sync-exhausted WAIT] [--out e2e3.csv] [--no-build]
#       [--server-cpus 0] [--client-cpus 1] [--wait-mode paced|closed]
#
# A row is target[:strategy[:threads[:timers]]]: netty (the bare Netty reference), sluice:auto
# (nothing touched) or sluice:synchronous:N (a receiver pool of N threads; its queue and exhausted
# action are Sluice's defaults, 1000 and WAIT, unless --sync-queue and --sync-exhausted say
# otherwise); timers is timed (the default: meters in a Prometheus registry, as sluice run has) or
# untimed (the request and flow timers denied), e.g. sluice:auto::untimed, named auto-untimed in the
# CSV.
# E3 runs /nodelay in closed loop and /wait paced at one request per client per second, for each
# client count, every row of a repeat one after the other (so the ratio to netty is within one
# repeat); --wait-mode closed sends /wait in closed loop too, every client at once from the start
# (a cold burst, as wrk does). E2 (rows default to synchronous 1, 10 and 50 threads and auto) runs 40 clients that each
# send 10 requests to /wait back to back and reports the makespan. --server-cpus and
# --client-cpus pin the two processes to CPUs (taskset lists) so they do not take each other's.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
experiment=all
e3_rows="netty sluice:auto sluice:synchronous:300"
e2_rows="sluice:synchronous:1 sluice:synchronous:10 sluice:synchronous:50 sluice:auto"
rows=""
paths=nodelay,wait
client_counts=400,1000,10000
seconds=10
warm_up=5
timeout_s=10
wait_mode=paced
repeats=3
sync_queue=""
sync_exhausted=""
out=e2e3.csv
build=1
server_cpus=""
client_cpus=""
while [ $# -gt 0 ]; do
  case "$1" in
    --experiment) experiment=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --paths) paths=$2; shift 2 ;;
    --clients) client_counts=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warm-up) warm_up=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --sync-queue) sync_queue=$2; shift 2 ;;
    --sync-exhausted) sync_exhausted=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --server-cpus) server_cpus=$2; shift 2 ;;
    --client-cpus) client_cpus=$2; shift 2 ;;
    --wait-mode) wait_mode=$2; shift 2 ;;
    *) echo "unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done

. "$root/bin/find-java.sh"
sluice_find_java || exit 1
java="$JAVA_HOME/bin/java"
server_java="$java"
client_java="$java"
[ -z "$server_cpus" ] || server_java="taskset -c $server_cpus $java"
[ -z "$client_cpus" ] || client_java="taskset -c $client_cpus $java"
jar="$root/sluice-bench/target/benchmarks.jar"
. "$root/sluice-bench/target-server.sh"

# run_row EXPERIMENT REPEAT ROW PATH MODE CLIENTS: one server, one client run, one CSV line.
run_row() {
  exp=$1 rep=$2 row=$3 path=$4 mode=$5 clients=$6
  target=$(echo "$row" | cut -d: -f1)
  strategy=$(echo "$row:" | cut -d: -f2)
  threads=$(echo "$row::" | cut -d: -f3)
  timers=$(echo "$row:::" | cut -d: -f4)
  set -- --target "$target"
  if [ "$target" = sluice ]; then
    set -- "$@" --strategy "${strategy:-auto}"
    [ -z "$threads" ] || set -- "$@" --threads "$threads"
    [ -z "$timers" ] || set -- "$@" --timers "$timers"
    [ -z "$sync_queue" ] || set -- "$@" --max-queue "$sync_queue"
    [ -z "$sync_exhausted" ] || set -- "$@" --exhausted "$sync_exhausted"
  fi
  start_server "$@"
  if [ "$mode" = batch ]; then
    load="--requests 10 --timeout 600 --seconds 800"
    limit=900
  else
    load="--interval 1 --warm-up $warm_up --seconds $seconds --timeout $timeout_s"
    limit=$(awk "BEGIN { printf \"%d\", $warm_up + $seconds + 3 * $timeout_s + 180 }")
  fi
  # shellcheck disable=SC2086 # $load is a list of options, $client_java may start with taskset
  if ! timeout "$limit" $client_java -Xmx2g -cp "$jar" io.sluice.bench.http.HttpLoadClient \
    --port "$port" --path "/$path" --mode "$mode" --clients "$clients" $load \
    --server-pid "$server_pid" --target "$target" --strategy "${strategy:--}${timers:+-$timers}" \
    --threads "${threads:--}" --header true >"$work/client.csv" 2>>"$work/client.log"; then
    echo "the load client failed or ran past $limit s ($exp $row /$path $clients):" >&2
    tail -20 "$work/client.log" >&2
    stop_server
    return 0
  fi
  stop_server
  [ -s "$out" ] || echo "experiment,repeat,$(sed -n 1p "$work/client.csv")" >"$out"
  line="$exp,$rep,$(sed -n 2p "$work/client.csv")"
  echo "$line" >>"$out"
  echo "$line" >>"$work/lines"
  echo "$line"
  sleep 2 # let the sockets of the run close before the next
}

rep=1
while [ "$rep" -le "$repeats" ]; do
  if [ "$experiment" = e3 ] || [ "$experiment" = all ]; then
    for path in $(echo "$paths" | tr , ' '); do
      mode=closed
      if [ "$path" = wait ]; then mode=$wait_mode; fi
      for clients in $(echo "$client_counts" | tr , ' '); do
        for row in ${rows:-$e3_rows}; do
          run_row e3 "$rep" "$row" "$path" "$mode" "$clients"
        done
      done
    done
  fi
  if [ "$experiment" = e2 ] || [ "$experiment" = all ]; then
    for row in ${rows:-$e2_rows}; do
      run_row e2 "$rep" "$row" wait batch 40
    done
  fi
  rep=$((rep + 1))
done

# Ratios within each repeat: E3 req/s against netty's for the same path and clients, and /wait
# against the ideal (one request per client per second); E2 the makespan against the ideal 10 s.
[ -s "$work/lines" ] || exit 0
awk -F, '
  $1 == "e3" && $3 == "netty" { netty[$2 "," $6 "," $7] = $14 }
  { line[NR] = $0 }
  END {
    for (i = 1; i <= NR; i++) {
      split(line[i], f, ",")
      row = f[3] (f[4] == "-" ? "" : ":" f[4]) (f[5] == "-" ? "" : ":" f[5])
      if (f[1] == "e2") {
        printf "e2 repeat %s %-24s makespan %s s (ideal 10 s), errors %s %s\n", f[2], row, f[23], f[16], f[17]
        continue
      }
      key = f[2] "," f[6] "," f[7]
      ratio = (key in netty && netty[key] > 0) ? sprintf("%.2f", f[14] / netty[key]) : "-"
      ideal = f[15] != "" ? sprintf(", %.1f%% of ideal", 100 * f[14] / f[15]) : ""
      printf "e3 repeat %s %-24s %-9s %5s clients: %s req/s, %s x netty%s, errors %s %s, p99 %s ms\n", f[2], row, f[6], f[7], f[14], ratio, ideal, f[16], f[17], f[20]
    }
  }' "$work/lines" >&2
