/**
 * Fixtures and SPI contract tests for Sluice and for users who write their own processors,
 * sources and stores.
 */
package io.sluice.testkit;
