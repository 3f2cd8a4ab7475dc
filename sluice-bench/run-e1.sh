#!/bin/sh
# Runs benchmark E1 (E1Benchmark: batch jobs with fixed threading profiles against auto) with the
# newest JDK >= 21 and the flags Fory and the SQLite driver need; the downstream service of the io
# and throttled jobs starts in a JVM of its own with the same flags. Build first:
# ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to E1Benchmark (see its class comment), e.g. --jobs cpu --runs 3 --out e1.csv.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bin/find-java.sh"
sluice_find_java || exit 1
exec "$JAVA_HOME/bin/java" --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
  --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx4g -cp "$root/sluice-bench/target/benchmarks.jar" io.sluice.bench.batch.E1Benchmark "$@"
