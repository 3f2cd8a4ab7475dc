/**
 * Data formats: the {@link io.sluice.formats.ReadProcessor} that parses JSON, XML, CSV or YAML into
 * plain Java values (maps in document order, lists, texts, numbers, booleans, null) that
 * expressions reach into ({@code payload.order.items[0].sku}), the {@link
 * io.sluice.formats.WriteProcessor} that writes such values as text, and the {@link
 * io.sluice.formats.TransformProcessor} that builds a new structure from a template of expressions.
 * A document that does not parse fails with a {@link io.sluice.formats.FormatException} of type
 * {@code FORMAT:PARSE}, with its line and column.
 */
package io.sluice.formats;
