/**
 * A package the default allow-list refuses, holding {@link org.example.notallowed.Gadget}, the
 * stand-in for a class a serializer must not read.
 */
package org.example.notallowed;
