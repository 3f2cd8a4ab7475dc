#!/bin/sh
# Runs benchmark E4 (StorageBenchmark) with the newest JDK >= 21 and the flags Fory and the
# SQLite driver need. Build first: ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to StorageBenchmark (see its class comment), e.g. --sizes 1k --runs 3.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bin/find-java.sh"
sluice_find_java || exit 1
exec "$JAVA_HOME/bin/java" --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
  --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx4g -cp "$root/sluice-bench/target/benchmarks.jar" io.sluice.bench.StorageBenchmark "$@"
