/**
 * The job executor in configuration files: the {@code sluice.jobs} section ({@link
 * io.sluice.jobs.config.JobsConfig}), registered through {@link
 * io.sluice.jobs.config.JobsComponents}.
 */
package io.sluice.jobs.config;
