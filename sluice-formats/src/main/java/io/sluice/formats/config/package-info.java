/**
 * Data formats in configuration files: the {@code read}, {@code write} and {@code transform}
 * processors, registered through {@link io.sluice.formats.config.FormatsComponents}.
 */
package io.sluice.formats.config;
