# Sourced by the run-*.sh scripts (POSIX sh): bench_java MAIN ARGS... runs class MAIN of the
# benchmarks jar with the newest JDK >= 21 and the flags Fory and the SQLite driver need.
# Build first: ./mvnw -q -pl sluice-bench -am package -DskipTests
bench_root=$(cd "$(dirname "$0")/.." && pwd)
. "$bench_root/bin/find-java.sh"

bench_java() {
  sluice_find_java || exit 1
  bench_main=$1
  shift
  exec "$JAVA_HOME/bin/java" --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
    --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
    -Xmx4g -cp "$bench_root/sluice-bench/target/benchmarks.jar" "$bench_main" "$@"
}
