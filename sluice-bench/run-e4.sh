#!/bin/sh
# Runs benchmark E4 (StorageBenchmark) with the newest JDK >= 21 and the flags Fory and the
# SQLite driver need. Build first: ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to StorageBenchmark (see its class comment), e.g. --sizes 1k --runs 3.
set -e
. "$(dirname "$0")/bench-java.sh"
bench_java io.sluice.bench.StorageBenchmark "$@"
