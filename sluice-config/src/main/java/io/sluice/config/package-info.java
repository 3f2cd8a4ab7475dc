/** Reads Sluice's YAML configuration into the core model. */
package io.sluice.config;
