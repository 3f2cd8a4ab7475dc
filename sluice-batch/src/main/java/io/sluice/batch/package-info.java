/**
 * Batch jobs: an input phase that loads records into durable blocks, and a process phase that moves
 * each block through ordered steps, one transaction per move, so that a killed process resumes
 * where it stopped.
 */
package io.sluice.batch;
