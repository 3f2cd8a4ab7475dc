#!/bin/sh
# Runs a main class of sluice-bench/target/benchmarks.jar with the newest JDK >= 21 and the flags
# Fory and the SQLite driver need; what it starts with the test kit's ChildJvm gets the same JDK
# and flags. Build first: ./mvnw -q -pl sluice-bench -am package -DskipTests
#   sluice-bench/run-main.sh HEAP CLASS [ARGUMENTS...], e.g. run-main.sh 4g io.sluice.bench.StorageBenchmark
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
heap=$1
main=$2
shift 2
. "$root/bin/find-java.sh"
sluice_find_java || exit 1
exec "$JAVA_HOME/bin/java" --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
  --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  "-Xmx$heap" -cp "$root/sluice-bench/target/benchmarks.jar" "$main" "$@"
