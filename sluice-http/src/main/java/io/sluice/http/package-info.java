/**
 * HTTP for Sluice flows on one Netty engine: {@link io.sluice.http.HttpListenerSource} serves
 * requests as messages, under the flow's processing strategy.
 */
package io.sluice.http;
