package io.sluice.config;

import io.sluice.core.Application;

/**
 * A configuration file as {@link ConfigLoader#read} found it: the application it describes, to
 * build, its jobs ({@code sluice.jobs:}), which run beside the application on its storage, and its
 * batch jobs ({@code batch:}), which run on that storage when asked to.
 *
 * @param application the application's builder: flows, storage, serialization
 * @param jobs the job executor node's settings and handlers (the defaults and none when absent)
 * @param batch the batch jobs (none when absent)
 */
public record Configuration(Application.Builder application, JobsConfig jobs, BatchConfig batch) {}
