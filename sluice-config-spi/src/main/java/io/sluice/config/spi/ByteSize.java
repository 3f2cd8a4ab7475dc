package io.sluice.config.spi;

/**
 * A default that is a number of bytes, shown in the schema with the largest unit that divides it
 * ({@code 64MB}).
 *
 * @param bytes the number of bytes
 */
public record ByteSize(long bytes) {}
