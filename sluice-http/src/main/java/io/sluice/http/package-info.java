/**
 * HTTP for Sluice flows on one Netty engine: {@link io.sluice.http.HttpListenerSource} serves
 * requests as messages under the flow's processing strategy; {@link
 * io.sluice.http.HttpRequestProcessor} calls out, with a per-host concurrency limit.
 */
package io.sluice.http;
