// The agent's socket for the ingest benchmark, in its own process (as a browser would be):
// connects as the tenant admin, listens to `<tenantId>:appMessage`, and measures each
// message's latency from the send time the producer wrote in its body. Results over IPC.
const { io } = require("socket.io-client");
const { performance } = require("node:perf_hooks");

const [url, token, sessionId, tenantId] = process.argv.slice(2);
const now = () => performance.timeOrigin + performance.now();
const latencies = []; // measured phase only
let received = 0;
let measuredReceived = 0;
let listEvents = 0;

const socket = io(url, { path: "/socket.io", transports: ["websocket"], auth: { token, sessionId }, reconnection: false });
socket.on(`${tenantId}:appMessage`, (p) => {
  received++;
  const body = p && p.message && p.message.body;
  // "bench <phase> <sendTimeMs> <seq>"
  if (typeof body !== "string" || !body.startsWith("bench ")) return;
  const parts = body.split(" ");
  if (parts[1] === "m") {
    measuredReceived++;
    latencies.push(now() - Number(parts[2]));
  }
});
socket.on(`${tenantId}:ticketList`, () => listEvents++);
socket.on("ready", () => process.send({ type: "ready" }));
socket.on("connect_error", (err) => {
  console.error("agent socket:", err.message);
  process.exit(1);
});
process.on("message", (m) => {
  if (m && m.type === "report") {
    process.send({ type: "report", received, measuredReceived, listEvents, latencies }, () => {
      if (m.exit) {
        socket.disconnect();
        process.exit(0);
      }
    });
  }
});
