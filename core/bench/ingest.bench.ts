/**
 * `npm run bench:ingest`: inbound messages through the channel contract
 * (`channels.inbound`, what every channel plugin calls) until the agent sees them on their
 * socket. Prints JSON.
 *
 * A fresh MariaDB database, one tenant, one web-chat connection, and the tenant admin's
 * socket (socket.io-client, in a child process like a browser). --producers concurrent
 * producers send for --warmup-s then --duration-s seconds, cycling over --senders visitors so
 * tickets are opened and then reused. Latency runs from the inbound call to the
 * `<tenantId>:appMessage` event at the agent (the send time travels in the body).
 * MariaDB's raw single-row INSERT rate (autocommit, 1 and 4 connections) is measured in the
 * same run as the ceiling the storage puts on any write path.
 */
import * as os from "node:os";
import * as path from "node:path";
import { fork, ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import { startBenchCore, createBenchTenant, login, api, summarise, sleep, cpuSampler, MYSQL, benchArg } from "./common";

const PRODUCERS = benchArg("producers", 8);
const SENDERS = benchArg("senders", 200);
const WARMUP_S = benchArg("warmup-s", 5);
const DURATION_S = benchArg("duration-s", 15);
const RAW_S = benchArg("raw-s", 4);
const GOAL = { messagesPerSecond: 1000, p95Ms: 50 };

const now = () => performance.timeOrigin + performance.now();

interface AgentReport {
  received: number;
  measuredReceived: number;
  listEvents: number;
  latencies: number[];
}

function ask(child: ChildProcess, exit = false): Promise<AgentReport> {
  return new Promise((resolve) => {
    const on = (m: { type: string } & AgentReport) => {
      if (m.type !== "report") return;
      child.off("message", on);
      resolve(m);
    };
    child.on("message", on);
    child.send({ type: "report", exit });
  });
}

/** Single-row autocommit INSERTs into a scratch table for `seconds`, on `conns` connections. */
async function rawInserts(dbName: string, conns: number, seconds: number): Promise<number> {
  const cs = await Promise.all(Array.from({ length: conns }, () => createConnection({ ...MYSQL, database: dbName })));
  await cs[0].query("CREATE TABLE IF NOT EXISTS bench_scratch (id BIGINT AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, b VARCHAR(100) NOT NULL, createdAt DATETIME NOT NULL) ENGINE=InnoDB");
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    cs.map(async (c, i) => {
      while (performance.now() < end) {
        await c.execute("INSERT INTO bench_scratch (a, b, createdAt) VALUES (?, ?, NOW())", [i, `row ${n}`]);
        n++;
      }
    }),
  );
  await cs[0].query("DROP TABLE bench_scratch");
  await Promise.all(cs.map((c) => c.end()));
  return Math.round(n / seconds);
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const b = await startBenchCore();
  let agent: ChildProcess | undefined;
  try {
    const t = await createBenchTenant(b, { name: "Ingest", queues: 2, users: 3 });
    const admin = await login(b.url, t.users[0].email);
    const c = await api(b.url, "POST", "/connections", { name: "Site", type: "channel-webchat", settings: { title: "Fale conosco" }, queueId: t.queueIds[0] }, admin);
    if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
    const on = await api(b.url, "POST", `/connections/${c.body.id}/connect`, {}, admin);
    if (on.status !== 200) throw new Error(`connect: ${on.status} ${JSON.stringify(on.body)}`);
    const connectionId = c.body.id as number;

    agent = fork(path.join(__dirname, "agent-socket.cjs"), [b.url, admin.token, admin.sessionId, String(t.tenantId)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    await new Promise<void>((resolve, reject) => {
      agent!.once("message", () => resolve());
      agent!.once("exit", (code) => reject(new Error(`agent socket exited with ${code}`)));
    });

    const broker = b.core.broker;
    let seq = 0;
    let errors = 0;
    const firstError: string[] = [];
    const callLatencies: number[] = [];
    let measuredCalls = 0;
    const run = async (phase: "w" | "m", seconds: number) => {
      const stopAt = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          while (performance.now() < stopAt) {
            const n = seq++;
            const sender = n % SENDERS;
            const t0 = now();
            try {
              await broker.call("channels.inbound", {
                tenantId: t.tenantId,
                connectionId,
                providerMessageId: `bench-${n}`,
                timestamp: Date.now(),
                from: { externalId: `visitor-${sender}`, name: `Visitante ${sender}` },
                body: `bench ${phase} ${t0.toFixed(3)} ${n}`,
              });
              if (phase === "m") {
                measuredCalls++;
                callLatencies.push(now() - t0);
              }
            } catch (err) {
              errors++;
              if (firstError.length < 3) firstError.push(String((err as Error).message ?? err));
            }
          }
        }),
      );
    };

    await run("w", WARMUP_S);
    await sleep(1000);
    // SQL statements of the core's Sequelize instance, counted through its `logging` option.
    let statements = 0;
    (b.core.sequelize as unknown as { options: { logging: unknown } }).options.logging = () => {
      statements++;
    };
    const cpuOf = cpuSampler()();
    const t0 = performance.now();
    await run("m", DURATION_S);
    const elapsed = (performance.now() - t0) / 1000;
    const cpu = cpuOf();
    (b.core.sequelize as unknown as { options: { logging: unknown } }).options.logging = false;
    await sleep(1500); // events still in flight
    const report = await ask(agent);
    const lat = summarise(report.latencies);

    const [[counts]] = (await b.core.sequelize.query("SELECT (SELECT COUNT(*) FROM tickets WHERE tenantId = ?) AS tickets, (SELECT COUNT(*) FROM messages WHERE tenantId = ?) AS messages", {
      replacements: [t.tenantId, t.tenantId],
    })) as unknown as [[{ tickets: number; messages: number }]];

    const raw1 = await rawInserts(b.dbName, 1, RAW_S);
    const raw4 = await rawInserts(b.dbName, 4, RAW_S);

    const messagesPerSecond = Math.round(report.measuredReceived / elapsed);
    const result = {
      benchmark: "ingest",
      cpus: os.cpus().length,
      node: process.version,
      loadAverageAtStart,
      producers: PRODUCERS,
      senders: SENDERS,
      warmupSeconds: WARMUP_S,
      durationSeconds: Number(elapsed.toFixed(2)),
      sent: measuredCalls,
      delivered: report.measuredReceived,
      errors,
      firstErrors: firstError,
      messagesPerSecond,
      endToEndLatencyMs: lat,
      inboundCallLatencyMs: summarise(callLatencies),
      sqlStatementsPerMessage: Number((statements / Math.max(1, measuredCalls)).toFixed(2)),
      cpuPercentOfOneCore: cpu,
      database: { tickets: Number(counts.tickets), messages: Number(counts.messages) },
      mariadbRawInsertsPerSecond: { connections1: raw1, connections4: raw4 },
      goal: GOAL,
      meetsGoal: messagesPerSecond >= GOAL.messagesPerSecond && lat.p95 <= GOAL.p95Ms,
    };
    console.log(JSON.stringify(result, null, 2));
    await ask(agent, true).catch(() => undefined);
  } finally {
    agent?.kill();
    await b.stop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
