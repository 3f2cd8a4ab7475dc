/**
 * Readiness: what each part of a running application says about whether it can do its job, and
 * {@link io.sluice.core.health.Readiness}, which asks them all within a deadline.
 */
package io.sluice.core.health;
