#!/bin/sh
# Runs benchmark E5 (clustered job acquisition, E5Benchmark) with the newest JDK >= 21; the node
# processes it starts use the same JDK and flags. Build first:
#   ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to E5Benchmark (see its class comment), e.g.
#   sluice-bench/run-e5.sh --nodes 5 --jobs 50000 --out docs/e5.csv
#   sluice-bench/run-e5.sh --mode noop --nodes 1,5 --threads 64 --out docs/e5-noop.csv
#   sluice-bench/run-e5.sh --mode latency --nodes 1,5 --out docs/e5-latency.csv
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bin/find-java.sh"
sluice_find_java || exit 1
exec "$JAVA_HOME/bin/java" --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
  --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx2g -cp "$root/sluice-bench/target/benchmarks.jar" io.sluice.bench.jobs.E5Benchmark "$@"
