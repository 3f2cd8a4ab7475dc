-- wrk script for run-e3-wrk.sh: sends the E3 token header and prints one CSV fragment at the end:
-- requests,timeouts,connect,read,write,status,p50_ms,p90_ms,p99_ms,p999_ms,max_ms
wrk.headers["x-token"] = "sluice-bench-token"

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("csv %d,%d,%d,%d,%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f\n",
    summary.requests, e.timeout, e.connect, e.read, e.write, e.status,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000))
end
