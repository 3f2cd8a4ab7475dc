package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * CPU time used so far, in nanoseconds, by this process, another process, or the whole machine
 * (from {@code /proc}; 0 where there is none). Differences over a run tell how much of the machine
 * the benchmark's own processes took and how much other work disturbed it.
 */
public final class CpuTime {

  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

  private CpuTime() {}

  /** CPU time of this process. */
  public static long ofThisProcess() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * CPU time the machine's processes used, niced ones left out: with the benchmark's own processes
   * it tells how much other work disturbed a run.
   */
  public static long ofMachine() {
    try {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().split("\\s+");
      // user nice system idle iowait irq softirq steal. Busy is user, system, irq, softirq and
      // steal: niced work (a build at nice 19 beside the benchmark) yields the CPU to this run.
      long busy = 0;
      for (int i : new int[] {1, 3, 6, 7, 8}) {
        busy += Long.parseLong(cpu[i]);
      }
      return busy * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** CPU time of process {@code pid} (0 when it is gone). */
  public static long ofProcess(long pid) {
    return ofProcesses(Path.of("/proc", Long.toString(pid)), name -> true);
  }

  /** CPU time of every process whose command name starts with {@code prefix}. */
  public static long ofProcessesNamed(String prefix) {
    long total = 0;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        if (proc.getFileName().toString().chars().allMatch(Character::isDigit)) {
          total += ofProcesses(proc, name -> name.startsWith(prefix));
        }
      }
    } catch (IOException e) {
      // No /proc: nothing is counted.
    }
    return total;
  }

  /**
   * CPU time of the children this process has waited for after they ended (cutime and cstime): the
   * processes it started that are gone, whose own entries in {@code /proc} went with them.
   */
  public static long ofEndedChildren() {
    return ofEndedChildren(Path.of("/proc/self"), name -> true);
  }

  /**
   * CPU time of the ended children of every process whose command name starts with {@code prefix}:
   * for PostgreSQL, the backends that closed (the postmaster waited for them), whose time {@link
   * #ofProcessesNamed} no longer sees.
   */
  public static long ofEndedChildrenOfProcessesNamed(String prefix) {
    long total = 0;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        if (proc.getFileName().toString().chars().allMatch(Character::isDigit)) {
          total += ofEndedChildren(proc, name -> name.startsWith(prefix));
        }
      }
    } catch (IOException e) {
      // No /proc: nothing is counted.
    }
    return total;
  }

  private static long ofEndedChildren(Path proc, Predicate<String> named) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      int close = stat.lastIndexOf(')');
      if (!named.test(stat.substring(stat.indexOf('(') + 1, close))) {
        return 0;
      }
      // cutime and cstime are fields 16 and 17: the children waited for, theirs included.
      String[] fields = stat.substring(close + 2).split(" ");
      return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long ofProcesses(Path proc, Predicate<String> named) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      int close = stat.lastIndexOf(')');
      if (!named.test(stat.substring(stat.indexOf('(') + 1, close))) {
        return 0;
      }
      // After the command: state is field 3; utime and stime are fields 14 and 15.
      String[] fields = stat.substring(close + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return 0; // The process ended while being read: its time is gone with it.
    }
  }
}
