/** The Jackson side of the formats: parsers with their limits, writers, streamed values. */
package io.sluice.formats.internal;
