# Sourced by run-e2e3.sh and run-e3-wrk.sh (POSIX sh) once $root, $build and $jar are set: builds
# the benchmarks when $build is 1, allows as many sockets as 10,000 connections need, makes $work
# (a temporary directory, removed at exit with the server stopped), and defines start_server and
# stop_server for the E2/E3 target server (HttpTargetServer) in a JVM of its own, started with
# $server_java; start_server sets $server_pid and $port.

if [ "$build" = 1 ]; then
  (cd "$root" && ./mvnw -q -pl sluice-bench -am package -DskipTests)
fi
# 10,000 connections need as many sockets in each process.
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)

server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  exec 3>&- # the server stops when its stdin closes
  tries=0
  while kill -0 "$server_pid" 2>/dev/null && [ "$tries" -lt 100 ]; do
    sleep 0.2
    tries=$((tries + 1))
  done
  if kill -0 "$server_pid" 2>/dev/null; then
    echo "the server $server_pid did not stop within 20 s: SIGTERM" >&2
    kill "$server_pid" 2>/dev/null || true
    sleep 5
    kill -9 "$server_pid" 2>/dev/null || true
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# start_server ARGS...: starts HttpTargetServer, sets server_pid and port.
start_server() {
  rm -f "$work/stdin" "$work/port"
  mkfifo "$work/stdin"
  # shellcheck disable=SC2086 # $server_java may be "taskset -c LIST java"
  $server_java --enable-native-access=ALL-UNNAMED -Xmx2g -cp "$jar" io.sluice.bench.http.HttpTargetServer \
    "$@" <"$work/stdin" >"$work/port" 2>>"$work/server.log" &
  server_pid=$!
  exec 3>"$work/stdin"
  port=""
  tries=0
  while [ -z "$port" ] && [ "$tries" -lt 300 ]; do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
    port=$(sed -n 's/^port //p' "$work/port")
    tries=$((tries + 1))
  done
  if [ -z "$port" ]; then
    echo "the target server ($*) did not start; its log:" >&2
    tail -20 "$work/server.log" >&2
    exit 1
  fi
}

trap 'stop_server; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
