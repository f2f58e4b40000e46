// Load generator child for the benchmarks: autocannon against one URL, result over IPC.
const autocannon = require("autocannon");
const [url, duration, connections] = process.argv.slice(2);
autocannon({ url, duration: Number(duration), connections: Number(connections), pipelining: 1 }, (err, r) => {
  if (err) {
    console.error(err);
    process.exit(1);
  }
  process.send({ rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }, () => process.exit(0));
});
