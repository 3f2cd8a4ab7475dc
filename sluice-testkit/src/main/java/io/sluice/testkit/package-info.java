/**
 * The Sluice test kit: abstract contract tests for the SPIs, which an implementation's test extends
 * to prove it keeps the contract ({@link io.sluice.testkit.SourceContractTest}, {@link
 * io.sluice.testkit.ProcessorContractTest}, {@link io.sluice.testkit.TimerServiceContractTest},
 * {@link io.sluice.testkit.ObjectSerializerContractTest}, {@link
 * io.sluice.testkit.CodecContractTest}, the last two with their values in {@code
 * io.sluice.testkit.fixtures}; the storage contracts {@link
 * io.sluice.testkit.ObjectStoreContractTest} and {@link
 * io.sluice.testkit.DurableQueueContractTest}; the job store's is sluice-jobs' test jar), {@link
 * io.sluice.testkit.RecordingSourceContext}, a flow played by the test, and {@link
 * io.sluice.testkit.PostgresTestDatabase}, a schema of its own per test class on a local
 * PostgreSQL. The manual clock and timer live in the core, in {@code io.sluice.core.testing}.
 */
package io.sluice.testkit;
