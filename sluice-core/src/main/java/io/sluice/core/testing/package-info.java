/**
 * Test support that ships with the core, so that the core's own tests and users' tests drive time
 * by hand: a {@link io.sluice.core.testing.ManualClock} and a {@link
 * io.sluice.core.testing.ManualTimerService} that runs what is due when the test says so.
 */
package io.sluice.core.testing;
