#!/bin/sh
# Runs benchmark E1 (E1Benchmark: batch jobs with fixed threading profiles against auto) with the
# newest JDK >= 21 and the flags Fory and the SQLite driver need; the downstream service of the io
# and throttled jobs starts in a JVM of its own with the same flags. Build first:
# ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to E1Benchmark (see its class comment), e.g. --jobs cpu --runs 3 --out e1.csv.
exec "$(dirname "$0")/run-main.sh" 4g io.sluice.bench.batch.E1Benchmark "$@"
