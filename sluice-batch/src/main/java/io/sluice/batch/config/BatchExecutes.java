package io.sluice.batch.config;

import io.sluice.batch.BatchLauncher;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The batch-execute processors of one file: the launcher they start jobs through, and the job and
 * result flow each names, which the {@code batch} section checks once the jobs are known.
 */
final class BatchExecutes {

  /** Starts the file's batch jobs from batch-execute processors, once the application is built. */
  final BatchLauncher launcher = new BatchLauncher();

  /** Each batch-execute's job, by the path that names it. */
  final Map<String, String> jobNames = new LinkedHashMap<>();

  /** Each batch-execute's result flow, by the path that names it. */
  final Map<String, String> resultFlowNames = new LinkedHashMap<>();
}
