# Sourced by ./sluice and ./mvnw (POSIX sh): finds a JDK 21 or newer and exports JAVA_HOME.
# Looks at JAVA_HOME, the java on PATH, then /usr/lib/jvm, /usr/java, /opt/java and
# /Library/Java/JavaVirtualMachines (or the directories in SLUICE_JDK_DIRS), and takes the newest
# JDK (with javac) that qualifies.

sluice_java_major() {
  # Prints the feature version of the java binary given, or nothing.
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

sluice_read_major() {
  # Sets sluice_major to the feature version of the JDK whose home is given, or to nothing. Its
  # release file says it (JAVA_VERSION="25.0.3", "1.8.0_452"), read with the shell's own read and
  # pattern expansions: no process is started, where a sed, a head and a command substitution per
  # JDK cost 20-60 ms each on a loaded machine (the whole search took 0.7-1.5 s at load 5), and
  # asking the JDK's java starts a JVM. A JDK without a release file is asked.
  sluice_major=""
  if [ -f "$1/release" ]; then
    while IFS= read -r sluice_line || [ -n "$sluice_line" ]; do
      case $sluice_line in
        JAVA_VERSION=*)
          sluice_line=${sluice_line#JAVA_VERSION=}
          sluice_line=${sluice_line#\"}
          sluice_line=${sluice_line#1.}
          sluice_major=${sluice_line%%[!0-9]*}
          break
          ;;
      esac
    done <"$1/release"
    [ -n "$sluice_major" ] && return 0
  fi
  sluice_major=$(sluice_java_major "$1/bin/java")
}

sluice_jdk_major() {
  # Prints the feature version of the JDK whose home is given, or nothing.
  sluice_read_major "$1"
  echo "$sluice_major"
}

sluice_consider_jdk() {
  # Keeps $1 in sluice_best when it is a JDK >= 21 newer than the best so far.
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  sluice_read_major "$1"
  [ -n "$sluice_major" ] || return 0
  if [ "$sluice_major" -lt 21 ]; then
    sluice_too_old="$sluice_too_old
  $1 (Java $sluice_major)"
    return 0
  fi
  if [ "$sluice_major" -ge 21 ] && [ "$sluice_major" -gt "$sluice_best_major" ]; then
    sluice_best="$1"
    sluice_best_major="$sluice_major"
  fi
}

sluice_find_java() {
  sluice_best=""
  sluice_best_major=0
  sluice_too_old=""
  [ -n "${JAVA_HOME:-}" ] && sluice_consider_jdk "$JAVA_HOME"
  if sluice_java=$(command -v java); then
    # /usr/bin/java -> /etc/alternatives/java -> <home>/bin/java: the home is two levels up.
    sluice_java=$(readlink -f "$sluice_java")
    sluice_consider_jdk "${sluice_java%/bin/java}"
  fi
  # mvnw runs with `set -f`; the JDK directories are found by globbing.
  case $- in *f*) sluice_noglob=1; set +f ;; *) sluice_noglob=0 ;; esac
  for sluice_root in ${SLUICE_JDK_DIRS:-/usr/lib/jvm /usr/java /opt/java /Library/Java/JavaVirtualMachines}; do
    for sluice_dir in "$sluice_root"/* "$sluice_root"/*/Contents/Home; do
      [ -d "$sluice_dir" ] && sluice_consider_jdk "$sluice_dir"
    done
  done
  [ "$sluice_noglob" = 1 ] && set -f
  if [ -z "$sluice_best" ]; then
    {
      echo "Sluice needs a JDK 21 or newer, and none was found."
      echo "Looked at: JAVA_HOME (${JAVA_HOME:-unset}), the java on PATH, and the JDKs under"
      echo "${SLUICE_JDK_DIRS:-/usr/lib/jvm /usr/java /opt/java /Library/Java/JavaVirtualMachines}."
      [ -z "$sluice_too_old" ] || echo "Found only older JDKs:$sluice_too_old"
      echo "Install one, for example 'apt-get install openjdk-21-jdk' (Debian/Ubuntu) or a Temurin JDK"
      echo "from adoptium.net, then set JAVA_HOME to it or put its bin directory on PATH."
    } >&2
    return 1
  fi
  JAVA_HOME="$sluice_best"
  export JAVA_HOME
}
