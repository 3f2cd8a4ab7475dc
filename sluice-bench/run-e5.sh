#!/bin/sh
# Runs benchmark E5 (clustered job acquisition, E5Benchmark) with the newest JDK >= 21; the node
# processes it starts use the same JDK and flags. Build first:
#   ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to E5Benchmark (see its class comment), e.g.
#   sluice-bench/run-e5.sh --nodes 5 --jobs 50000 --out docs/e5.csv
#   sluice-bench/run-e5.sh --mode noop --nodes 1,5 --threads 64,256 --out docs/e5-noop.csv
#   sluice-bench/run-e5.sh --mode latency --nodes 1,5 --out docs/e5-latency.csv
exec "$(dirname "$0")/run-main.sh" 2g io.sluice.bench.jobs.E5Benchmark "$@"
