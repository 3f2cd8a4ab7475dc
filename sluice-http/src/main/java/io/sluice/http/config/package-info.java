/**
 * HTTP in configuration files: the {@code http-listener} source and the {@code http-request}
 * processor with their TLS, registered through {@link io.sluice.http.config.HttpComponents}.
 */
package io.sluice.http.config;
