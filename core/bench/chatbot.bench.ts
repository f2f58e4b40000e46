/**
 * `npm run bench:chatbot`: conversations with a chat flow of the chatbot-flows plugin (the
 * engine answering the core's chatbot deliveries), measured from the customer's inbound
 * message to the bot's reply stored. Prints JSON.
 *
 * A fresh MariaDB database, one PLUS tenant, one web chat connection bound to a 5-node flow:
 * start → menu → question → menu → end (a text, then the ticket closed). A conversation is
 * four customer messages (through `channels.inbound`, what every channel calls), each answered
 * by one bot message (recorded through the core API, `platform.messages.send`): four inbound
 * and four outbound messages stored, one ticket opened and closed. The reply's time is when
 * the core records it (the core's `messages.changed` event, heard by a listener service on the
 * bench's broker).
 *
 * Phases:
 *  1. ingest: `bench:ingest` itself (core/bench/ingest.bench.ts, its own core and database, run
 *     first in a child process with shorter phases), for the reference rate of this machine now;
 *  2. throughput: --conversations (500) conversations at once, each writing again as soon as
 *     the bot answered: bot replies per second, and the latency under that saturation;
 *  3. paced: another 500 conversations at once, each customer thinking before answering so the
 *     offered load is the goal's rate (0.4 × the ingest rate; half the measured throughput when
 *     that is lower, since at the throughput itself every reply queues): the inbound → reply
 *     latency at that rate (the goal's p95).
 */
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { ServiceSchema } from "moleculer";
import { startBenchCore, createBenchTenant, login, api, summarise, sleep, cpuSampler, benchArg, type BenchCore } from "./common";

const CONVERSATIONS = benchArg("conversations", 500);
const INGEST_S = benchArg("ingest-s", 10);
const RATIO_GOAL = 0.4;
const GOAL = { repliesVsIngest: RATIO_GOAL, p95Ms: 50 };
/** Customer messages of one conversation, and what each answers. */
const SCRIPT = ["Oi", "2", "Rua das Flores, 100", "1"];

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
      const json = out.slice(out.indexOf("{"));
      if (code !== 0) return reject(new Error(`bench:ingest exited with ${code}: ${out.slice(-500)}`));
      try {
        resolve(JSON.parse(json));
      } catch (err) {
        reject(new Error(`bench:ingest printed no JSON: ${(err as Error).message}`));
      }
    });
  });
}

/** The bot's replies per ticket as the core records them, and who waits for which. */
class Replies {
  private times = new Map<number, number[]>();
  private waiters = new Map<number, Array<{ n: number; resolve: (at: number) => void }>>();
  total = 0;

  record(ticketId: number, at: number): void {
    const list = this.times.get(ticketId) ?? [];
    list.push(at);
    this.times.set(ticketId, list);
    this.total++;
    const ws = this.waiters.get(ticketId) ?? [];
    for (const w of ws.filter((x) => x.n <= list.length)) w.resolve(list[w.n - 1]);
    this.waiters.set(ticketId, ws.filter((x) => x.n > list.length));
  }

  /** When the ticket's `n`-th bot reply was recorded (waits for it, at most `ms`). */
  nth(ticketId: number, n: number, ms = 120_000): Promise<number> {
    const list = this.times.get(ticketId) ?? [];
    if (list.length >= n) return Promise.resolve(list[n - 1]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply ${n} on ticket ${ticketId} in ${ms} ms`)), ms);
      const ws = this.waiters.get(ticketId) ?? [];
      ws.push({ n, resolve: (at) => (clearTimeout(timer), resolve(at)) });
      this.waiters.set(ticketId, ws);
    });
  }
}

function listener(replies: Replies): ServiceSchema {
  return {
    name: "bench-chatbot-listener",
    events: {
      "messages.changed"(ctx: { params: { action: string; ticketId: number; message: { fromMe: boolean; userId: number | null } } }) {
        const p = ctx.params;
        if (p.action === "create" && p.message.fromMe && p.message.userId === null) replies.record(p.ticketId, now());
      },
    },
  };
}

/** The flow: start → menu → question → menu → end. */
function graph() {
  const pos = (i: number) => ({ x: 0, y: i * 120 });
  return {
    nodes: [
      { id: "start", type: "start", position: pos(0), data: { type: "start", name: "Início" } },
      { id: "menu", type: "menu", position: pos(1), data: { type: "menu", name: "Menu", style: "buttons", title: "Olá {{name}}!", text: "Como podemos ajudar?", options: [{ id: "buy", title: "Comprar" }, { id: "deliver", title: "Entrega" }], sections: [] } },
      { id: "address", type: "question", position: pos(2), data: { type: "question", name: "Endereço", text: "Qual é o endereço de entrega?", saveTo: "var.address", validate: "any" } },
      { id: "confirm", type: "menu", position: pos(3), data: { type: "menu", name: "Confirma", style: "buttons", title: "", text: "Confirma a entrega em {{var.address}}?", options: [{ id: "yes", title: "Sim" }, { id: "no", title: "Não" }], sections: [] } },
      { id: "end", type: "end", position: pos(4), data: { type: "end", name: "Fim", message: "Pronto! Protocolo {{protocol}}.", close: true } },
    ],
    edges: [
      { id: "e1", source: "start", target: "menu", sourceHandle: null },
      { id: "e2", source: "menu", target: "address", sourceHandle: "deliver" },
      { id: "e3", source: "address", target: "confirm", sourceHandle: null },
      { id: "e4", source: "confirm", target: "end", sourceHandle: "yes" },
    ],
  };
}

interface PhaseResult {
  conversations: number;
  replies: number;
  errors: number;
  firstErrors: string[];
  seconds: number;
  repliesPerSecond: number;
  latencies: number[];
}

/** `count` conversations at once; each customer waits `thinkMs()` before each message (the first: a random part of it). */
async function phase(b: BenchCore, replies: Replies, tenantId: number, connectionId: number, label: string, thinkMs: () => number, count = CONVERSATIONS): Promise<PhaseResult> {
  const latencies: number[] = [];
  const firstErrors: string[] = [];
  let errors = 0;
  let done = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const visitor = `${label}-${i}`;
      let ticketId = 0;
      try {
        await sleep(Math.random() * thinkMs());
        for (const [k, body] of SCRIPT.entries()) {
          if (k > 0) await sleep(thinkMs());
          const sent = now();
          const r = (await b.core.broker.call("channels.inbound", { tenantId, connectionId, providerMessageId: `${visitor}-${k}`, timestamp: Date.now(), from: { externalId: visitor, name: `Cliente ${i}` }, body })) as { ticketId: number };
          ticketId = r.ticketId;
          const at = await replies.nth(ticketId, k + 1);
          latencies.push(at - sent);
          done++;
        }
      } catch (err) {
        errors++;
        if (firstErrors.length < 3) firstErrors.push(`${visitor} (ticket ${ticketId}): ${(err as Error).message}`);
      }
    }),
  );
  const seconds = (now() - t0) / 1000;
  return { conversations: count, replies: done, errors, firstErrors, seconds: Number(seconds.toFixed(2)), repliesPerSecond: Math.round(done / seconds), latencies };
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const ingest = await runIngest();
  const b = await startBenchCore();
  try {
    const replies = new Replies();
    b.core.broker.createService(listener(replies));
    const t = await createBenchTenant(b, { name: "Chatbot", queues: 2, users: 3 });
    const admin = await login(b.url, t.users[0].email);
    const c = await api(b.url, "POST", "/connections", { name: "Site", type: "channel-webchat", settings: { title: "Fale conosco" }, queueId: t.queueIds[0] }, admin);
    if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
    await api(b.url, "POST", `/connections/${c.body.id}/connect`, {}, admin);
    let flow = { status: 404, body: {} as { id?: number } };
    for (let i = 0; i < 100 && flow.status === 404; i++, await sleep(100)) {
      flow = await api(b.url, "POST", "/chatbot-flows/flows", { kind: "chat", name: "Entrega", active: true, settings: { waitMinutes: 60 }, graph: graph() }, admin);
    }
    if (flow.status >= 300 || !flow.body.id) throw new Error(`flow: ${flow.status} ${JSON.stringify(flow.body)}`);
    const bound = await api(b.url, "PUT", "/chatbot-flows/bindings", { scope: "connection", targetId: c.body.id, entryFlowId: flow.body.id }, admin);
    if (bound.status !== 200) throw new Error(`binding: ${bound.status} ${JSON.stringify(bound.body)}`);
    const connectionId = c.body.id as number;

    // A short warm-up (JIT, pools, the plugin's first queries), then the measured phases.
    const warm = await phase(b, replies, t.tenantId, connectionId, "warm", () => 0, Math.min(50, CONVERSATIONS));
    if (warm.errors) throw new Error(`warm-up: ${warm.firstErrors.join("; ")}`);
    let statements = 0;
    const seq = b.core.sequelize as unknown as { options: { logging: unknown } };
    // --profile 1: the core's statements and the bus's action calls of the throughput phase, by kind (printed to stderr).
    const profile = benchArg("profile", 0) ? { sql: new Map<string, number>(), calls: new Map<string, number>() } : null;
    const tally = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    const plainCall = b.core.broker.call.bind(b.core.broker);
    if (profile) (b.core.broker as { call: unknown }).call = (name: string, ...rest: unknown[]) => (tally(profile.calls, name), (plainCall as (...a: unknown[]) => unknown)(name, ...rest));
    seq.options.logging = (sql: string) => {
      statements++;
      if (profile) tally(profile.sql, sql.replace(/^Executing \([^)]*\): /, "").replace(/'[^']*'/g, "?").replace(/\b\d+\b/g, "N").slice(0, 160));
    };
    const cpuOf = cpuSampler()();
    const full = await phase(b, replies, t.tenantId, connectionId, "full", () => 0);
    const cpu = cpuOf();
    seq.options.logging = false;
    if (profile) {
      (b.core.broker as { call: unknown }).call = plainCall;
      const top = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${(n / Math.max(1, full.replies)).toFixed(2)}  ${k}`);
      console.error(["calls per reply:", ...top(profile.calls), "", "statements per reply:", ...top(profile.sql)].join("\n"));
    }
    await sleep(1000);

    // The goal's rate, or half the measured throughput when that is lower (at the throughput itself every reply queues).
    const goalRate = Math.round(RATIO_GOAL * ingest.messagesPerSecond);
    const targetRate = Math.max(1, Math.min(goalRate, Math.round(full.repliesPerSecond / 2)));
    const think = (CONVERSATIONS / targetRate) * 1000; // 500 customers, each answering every `think` ms on average
    const paced = await phase(b, replies, t.tenantId, connectionId, "paced", () => think * (0.5 + Math.random()));

    const ratio = Number((full.repliesPerSecond / Math.max(1, ingest.messagesPerSecond)).toFixed(2));
    const pacedLatency = summarise(paced.latencies);
    const result = {
      benchmark: "chatbot",
      cpus: os.cpus().length,
      node: process.version,
      loadAverageAtStart,
      conversations: CONVERSATIONS,
      flow: "start → menu → question → menu → end (4 customer messages, 4 bot replies)",
      ingest: { messagesPerSecond: ingest.messagesPerSecond, endToEndP95Ms: ingest.endToEndLatencyMs.p95 },
      throughput: {
        replies: full.replies,
        errors: full.errors,
        firstErrors: full.firstErrors,
        seconds: full.seconds,
        repliesPerSecond: full.repliesPerSecond,
        inboundToReplyMs: summarise(full.latencies),
        coreSqlStatementsPerReply: Number((statements / Math.max(1, full.replies)).toFixed(2)),
        cpuPercentOfOneCore: cpu,
      },
      paced: {
        offeredRepliesPerSecond: targetRate,
        pacedAt: targetRate === goalRate ? "the goal's rate (0.4 × ingest)" : "half the measured throughput (below the goal's rate)",
        meanThinkMs: Math.round(think),
        replies: paced.replies,
        errors: paced.errors,
        firstErrors: paced.firstErrors,
        repliesPerSecond: paced.repliesPerSecond,
        inboundToReplyMs: pacedLatency,
      },
      repliesVsIngest: ratio,
      goal: GOAL,
      meetsGoal: ratio >= RATIO_GOAL && pacedLatency.p95 <= GOAL.p95Ms,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await b.stop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
