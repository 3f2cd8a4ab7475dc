/** The batch engine's implementation: the JDBC block store. */
package io.sluice.batch.internal;
