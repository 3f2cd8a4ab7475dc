#!/bin/sh
# Draws the house: which module depends on which (from the poms), and which package of Sluice
# imports which (from the built jars, by jdeps), with the package cycles and the imports of
# another package's internal. Run after ./mvnw install -DskipTests:
#   bin/house.sh            # modules, packages, cycles, internal imports
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bin/find-java.sh"
sluice_find_java >/dev/null || exit 1
jdeps="$JAVA_HOME/bin/jdeps"

echo "## Modules (compile and runtime dependencies on other Sluice modules)"
for pom in "$here"/sluice-*/pom.xml; do
  module=$(basename "$(dirname "$pom")")
  [ "$module" = sluice-bench ] && continue
  deps=$(sed -n '/<dependencies>/,/<\/dependencies>/p' "$pom" \
    | grep -B1 -A2 '<artifactId>sluice-' | tr -d ' \n' \
    | sed 's/<dependency>/\n/g' | grep -v '<scope>test</scope>' \
    | sed -n 's/.*<artifactId>\(sluice-[a-z-]*\)<\/artifactId>.*/\1/p' | sort -u | tr '\n' ' ')
  echo "$module -> ${deps:-(none)}"
done

echo
echo "## Packages (an arrow for each import of another Sluice package)"
jars=$(ls "$here"/sluice-*/target/sluice-*-SNAPSHOT.jar | grep -v -e sluice-bench -e sluice-testkit)
edges=$(for jar in $jars; do
  "$jdeps" -verbose:package -filter:package -e 'io\.sluice\..*' "$jar" 2>/dev/null \
    | awk '$2 == "->" && $1 ~ /^io\.sluice/ && $3 ~ /^io\.sluice/ {print $1, $3}'
done | sort -u)
echo "$edges" | awk '{printf "%s -> %s\n", $1, $2}'

echo
echo "## Imports of an internal package from outside it (its owner, the package above it, may)"
echo "$edges" | awk '$2 ~ /\.internal$/ {owner = substr($2, 1, length($2) - 9); if ($1 != owner && index($1, $2) != 1) print $1, "->", $2}'

echo
echo "## Package cycles (pairs that import each other)"
echo "$edges" | awk '{e[$1 " " $2] = 1} END {for (k in e) {split(k, p, " "); if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1], "<->", p[2]}}' | sort
