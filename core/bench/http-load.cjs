// Load generator child for the list benchmark: `connections` keep-alive clients, each sending
// the next GET as soon as the last answer arrived, for `duration` seconds or `count` requests
// in all. Exact latency percentiles (autocannon's histogram has no p95). Result over IPC.
const http = require("node:http");
const { performance } = require("node:perf_hooks");

const { url, headers, duration, count, connections } = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);

function get() {
  return new Promise((resolve) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: "GET", headers, agent }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

async function main() {
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const end = duration ? performance.now() + duration * 1000 : Infinity;
  let left = count ?? Infinity;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end && left-- > 0) {
        const s = performance.now();
        const status = await get();
        latencies.push(performance.now() - s);
        if (status === 0) errors++;
        else if (status < 200 || status >= 300) non2xx++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => Number(latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))].toFixed(2));
  process.send(
    { cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6, requests: latencies.length, rps: Math.round(latencies.length / elapsed), p50: pct(50), p95: pct(95), p99: pct(99), non2xx, errors },
    () => process.exit(0),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
