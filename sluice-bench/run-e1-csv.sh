#!/bin/sh
# Runs E1's CSV job (E1CsvBenchmark: a 1M-line CSV file read, transformed and written as CSV by a
# durable Sluice batch job, against a plain-Java loop in the same run; every output verified line
# by line) with the newest JDK >= 21. Build first: ./mvnw -q -pl sluice-bench -am package -DskipTests
# Arguments go to E1CsvBenchmark (see its class comment), e.g. --runs 3 --out docs/e1-csv.csv.
exec "$(dirname "$0")/run-main.sh" 4g io.sluice.bench.batch.E1CsvBenchmark "$@"
