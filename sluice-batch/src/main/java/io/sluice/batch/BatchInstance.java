package io.sluice.batch;

import java.time.Instant;

/**
 * An instance of a batch job as listed: its state and progress.
 *
 * @param id its id
 * @param job the job's name
 * @param state where it is
 * @param running whether it runs in this process now
 * @param stopRequested whether it was asked to stop and its run has not answered yet
 * @param loaded records read from the input so far
 * @param processed records through every step so far
 * @param successful of those, records never failed
 * @param failed records failed so far
 * @param inputDone whether its whole input is loaded
 * @param created when it began
 * @param updated when it last changed
 * @param result the summary of its last run's result, or null before one ended
 */
public record BatchInstance(
    long id,
    String job,
    BatchState state,
    boolean running,
    boolean stopRequested,
    long loaded,
    long processed,
    long successful,
    long failed,
    boolean inputDone,
    Instant created,
    Instant updated,
    String result) {}
