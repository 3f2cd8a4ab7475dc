#!/bin/sh
# Runs the batch-across-nodes benchmark (NodesBenchmark, issue 22: E1's io job on 1, 2 and 3
# sluice batch run processes sharing one PostgreSQL store, beside one on the embedded SQLite store)
# with the newest JDK >= 21; the node processes run the CLI's jar with the same JDK, the service
# of E1 a JVM of its own. Build both first:
#   ./mvnw -q -pl sluice-cli,sluice-bench -am package -DskipTests
# Arguments go to NodesBenchmark (see its class comment), e.g.
#   sluice-bench/run-nodes.sh --runs 3 --out docs/nodes.csv
exec "$(dirname "$0")/run-main.sh" 1g io.sluice.bench.batch.NodesBenchmark "$@"
