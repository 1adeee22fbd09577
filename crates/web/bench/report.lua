-- wrk script: prints requests/s, p50 and p99 on one line (see load.sh).
function done(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.2f ms  p99 %.2f ms  errors %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.timeout))
end
