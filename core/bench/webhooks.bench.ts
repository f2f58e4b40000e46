/**
 * `npm run bench:webhooks`: signed WhatsApp Cloud API webhooks against the real gateway and
 * the channel-waba plugin, the load a busy number makes. Prints JSON.
 *
 * A fresh MariaDB database, one tenant, one WABA connection whose Graph API is the plugin's
 * local fake (plugins/channel-waba/test/fake-graph.ts). Each webhook POST carries 10 customer
 * messages (one change) plus three statuses (sent, delivered, read) for each of 10 messages
 * the agents sent before (a second change), signed with X-Hub-Signature-256 as Meta signs.
 *
 * Phases:
 *  1. ingest: `bench:ingest` itself in a child process, for the reference rate of this
 *     machine now (the goal is relative to it);
 *  2. setup: customers write once, an agent answers each ticket, so the statuses name
 *     messages the core has;
 *  3. paced: POSTs at the goal's rate (0.7 × the ingest rate in messages, ÷ 10 per POST) for
 *     --duration-s seconds: the webhook's answer time per POST, and the customer messages
 *     stored per second from the first POST until the last of them is stored (the plugin
 *     answers first and processes after, so a backlog shows as drain time).
 */
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { ServiceSchema } from "moleculer";
import { startBenchCore, createBenchTenant, login, api, summarise, sleep, cpuSampler, benchArg } from "./common";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";
import { envelope, messagesValue, metaJson, metaSignature, status, textMessage, type Customer } from "../../plugins/channel-waba/test/meta-payloads";

const DURATION_S = benchArg("duration-s", 15);
const INGEST_S = benchArg("ingest-s", 10);
const CUSTOMERS = benchArg("customers", 200);
const PER_POST = 10;
const RATIO_GOAL = 0.7;
const GOAL = { inboundVsIngest: RATIO_GOAL, webhookP95Ms: 200 };
const APP_SECRET = "bench-app-secret-0123456789abcdef";

const now = () => performance.timeOrigin + performance.now();

/** bench:ingest's JSON, from its own run in a child process. */
function runIngest(): Promise<{ messagesPerSecond: number; endToEndLatencyMs: { p95: number } }> {
  const root = path.join(__dirname, "..", "..");
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(__dirname, "ingest.bench.ts"), "--warmup-s", "3", "--duration-s", String(INGEST_S), "--raw-s", "1"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`bench:ingest exited with ${code}: ${out.slice(-500)}`));
      try {
        resolve(JSON.parse(out.slice(out.indexOf("{"))));
      } catch (err) {
        reject(new Error(`bench:ingest printed no JSON: ${(err as Error).message}`));
      }
    });
  });
}

/** Counts the customer messages the core stores (its `messages.changed` event). */
function listener(stored: { count: number; lastAt: number }): ServiceSchema {
  return {
    name: "bench-webhooks-listener",
    events: {
      "messages.changed"(ctx: { params: { action: string; message: { fromMe: boolean } } }) {
        if (ctx.params.action !== "create" || ctx.params.message.fromMe) return;
        stored.count++;
        stored.lastAt = now();
      },
    },
  };
}

async function post(url: string, payload: unknown): Promise<{ status: number; ms: number }> {
  const body = metaJson(payload);
  const t0 = now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": metaSignature(body, APP_SECRET) }, body });
  await res.arrayBuffer();
  return { status: res.status, ms: now() - t0 };
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const ingest = await runIngest();
  const graph = await FakeGraph.start();
  const b = await startBenchCore({ OUTBOUND_URL_ALLOWLIST: "127.0.0.1" });
  try {
    const stored = { count: 0, lastAt: 0 };
    b.core.broker.createService(listener(stored));
    const t = await createBenchTenant(b, { name: "Webhooks", queues: 1, users: 1 });
    const admin = await login(b.url, t.users[0].email);
    const n = graph.addNumber();
    const settings = { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "bench-verify-token", appSecret: APP_SECRET, graphUrl: graph.url };
    let c = { status: 0, body: {} as { id?: number; token?: string } };
    // The plugin's service may still be starting with the core.
    for (let i = 0; i < 100 && c.status !== 201; i++, await sleep(100)) c = await api(b.url, "POST", "/connections", { name: "WABA", type: "channel-waba", queueId: t.queueIds[0], settings }, admin);
    if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
    const on = await api(b.url, "POST", `/connections/${c.body.id}/connect`, {}, admin);
    if (on.status !== 200) throw new Error(`connect: ${on.status} ${JSON.stringify(on.body)}`);
    const url = `${b.url}/api/waba/${c.body.token}/webhook`;
    const customers: Customer[] = Array.from({ length: CUSTOMERS }, (_, i) => ({ waId: `55119${String(70000000 + i)}`, name: `Cliente ${i}` }));
    const batch = (from: number, count: number) => customers.slice(from, from + count);

    // Setup: every customer writes once; the agent answers each ticket once (the statuses' targets).
    for (let i = 0; i < CUSTOMERS; i += PER_POST) {
      const group = batch(i, PER_POST);
      const r = await post(url, envelope([{ wabaId: n.wabaId, changes: [{ value: messagesValue(n.pnid, { contacts: group, messages: group.map((g) => textMessage(g, "Oi")) }) }] }]));
      if (r.status !== 200) throw new Error(`setup webhook: ${r.status}`);
    }
    for (let i = 0; i < 300 && stored.count < CUSTOMERS; i++) await sleep(100);
    if (stored.count < CUSTOMERS) throw new Error(`setup: ${stored.count} of ${CUSTOMERS} first messages stored`);
    const [tickets] = (await b.core.sequelize.query("SELECT id FROM tickets WHERE tenantId = ? ORDER BY id", { replacements: [t.tenantId] })) as [Array<{ id: number }>, unknown];
    for (const tk of tickets) {
      const s = await api(b.url, "POST", `/messages/${tk.id}`, { body: "Olá! Em que posso ajudar?" }, admin);
      if (s.status >= 300) throw new Error(`agent send: ${s.status} ${JSON.stringify(s.body)}`);
    }
    let sentIds: Array<{ providerId: string; to: string }> = [];
    for (let i = 0; i < 100 && sentIds.length < tickets.length; i++, await sleep(100)) {
      const [rows] = (await b.core.sequelize.query(
        "SELECT m.providerId AS providerId, ci.externalId AS `to` FROM messages m JOIN contact_identities ci ON ci.contactId = m.contactId AND ci.tenantId = m.tenantId WHERE m.tenantId = ? AND m.fromMe = 1 AND m.providerId IS NOT NULL",
        { replacements: [t.tenantId] },
      )) as [Array<{ providerId: string; to: string }>, unknown];
      sentIds = rows;
    }
    if (!sentIds.length) throw new Error("the agent's messages got no provider ids");

    // Paced: the goal's rate.
    const goalRate = Math.max(PER_POST, Math.round(RATIO_GOAL * ingest.messagesPerSecond));
    const postsPerSecond = goalRate / PER_POST;
    const total = Math.round(postsPerSecond * DURATION_S);
    const before = stored.count;
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let k = 0;
    // The core's SQL statements of the paced phase (load-independent), by kind with --profile 1 (stderr).
    let statements = 0;
    const seq = b.core.sequelize as unknown as { options: { logging: unknown } };
    const profile = benchArg("profile", 0) ? new Map<string, number>() : null;
    seq.options.logging = (sql: string) => {
      statements++;
      if (profile) {
        const key = sql.replace(/^Executing \([^)]*\): /, "").replace(/'[^']*'/g, "?").replace(/\b\d+\b/g, "N").slice(0, 160);
        profile.set(key, (profile.get(key) ?? 0) + 1);
      }
    };
    const cpuOf = cpuSampler()();
    const t0 = now();
    const inFlight: Array<Promise<void>> = [];
    for (let p = 0; p < total; p++) {
      const due = t0 + (p * 1000) / postsPerSecond;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      const group = batch((p * PER_POST) % CUSTOMERS, PER_POST);
      const acks = Array.from({ length: PER_POST }, () => sentIds[k++ % sentIds.length]);
      const payload = envelope([
        {
          wabaId: n.wabaId,
          changes: [
            { value: messagesValue(n.pnid, { contacts: group, messages: group.map((g, i) => textMessage(g, `Mensagem ${p}-${i}`)) }) },
            { value: messagesValue(n.pnid, { statuses: acks.flatMap((a) => (["sent", "delivered", "read"] as const).map((st) => status(a.providerId, a.to, st))) }) },
          ],
        },
      ]);
      inFlight.push(
        post(url, payload).then((r) => {
          latencies.push(r.ms);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }),
      );
    }
    await Promise.all(inFlight);
    const postedFor = (now() - t0) / 1000;
    const expected = before + total * PER_POST;
    const drainLimit = now() + 120_000;
    while (stored.count < expected && now() < drainLimit) await sleep(50);
    const cpu = cpuOf();
    seq.options.logging = false;
    if (profile) console.error(["statements per POST (10 messages, 30 statuses):", ...[...profile].sort((x, y) => y[1] - x[1]).map(([q, c]) => `${(c / Math.max(1, total)).toFixed(2)}  ${q}`)].join("\n"));
    const measured = stored.count - before;
    const seconds = ((stored.count >= expected ? stored.lastAt : now()) - t0) / 1000;
    const inboundPerSecond = Math.round(measured / seconds);
    const webhook = summarise(latencies);
    const ratio = Number((inboundPerSecond / Math.max(1, ingest.messagesPerSecond)).toFixed(2));
    console.log(
      JSON.stringify(
        {
          benchmark: "webhooks",
          cpus: os.cpus().length,
          node: process.version,
          loadAverageAtStart,
          ingest: { messagesPerSecond: ingest.messagesPerSecond, endToEndP95Ms: ingest.endToEndLatencyMs.p95 },
          load: { posts: total, messagesPerPost: PER_POST, statusesPerPost: PER_POST * 3, offeredMessagesPerSecond: goalRate, postedForSeconds: Number(postedFor.toFixed(2)), customers: CUSTOMERS },
          answers: Object.fromEntries(statuses),
          webhookAnswerMs: webhook,
          stored: { messages: measured, of: total * PER_POST, seconds: Number(seconds.toFixed(2)), drainSeconds: Number(Math.max(0, seconds - postedFor).toFixed(2)) },
          inboundMessagesPerSecond: inboundPerSecond,
          cpuPercentOfOneCore: cpu,
          coreSqlStatementsPerPost: Number((statements / Math.max(1, total)).toFixed(2)),
          inboundVsIngest: ratio,
          goal: GOAL,
          meetsGoal: ratio >= RATIO_GOAL && webhook.p95 <= GOAL.webhookP95Ms && measured === total * PER_POST,
        },
        null,
        2,
      ),
    );
  } finally {
    await b.stop();
    await graph.close();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
