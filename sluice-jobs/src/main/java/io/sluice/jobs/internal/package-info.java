/** The job executor's implementation: the JDBC job store, the acquisition loop, the lease. */
package io.sluice.jobs.internal;
