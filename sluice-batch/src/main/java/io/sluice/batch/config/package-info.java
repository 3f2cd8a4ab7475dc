/**
 * Batch in configuration files: the {@code batch} section ({@link
 * io.sluice.batch.config.BatchConfig}) and the {@code batch-execute} processor, registered through
 * {@link io.sluice.batch.config.BatchComponents}.
 */
package io.sluice.batch.config;
