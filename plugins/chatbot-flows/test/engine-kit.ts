/**
 * What the flow engine's tests share (engine-*.test.ts): a real core on MariaDB with the bundled
 * chatbot-flows plugin loaded (its own database migrated by the host), tenants with a web chat
 * connection bound to a flow through the plugin's own routes, customers whose messages come in
 * through channels.inbound (what every channel plugin calls), and readers of what the bot sent,
 * the ticket's state and logs, and the flow's runs.
 */
import { QueryTypes } from "sequelize";
import { createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore, ok, waitFor as sharedWaitFor } from "@openatende/core/testkit";
import type { Flow, FlowEdge, FlowNode, FlowRun, NodeData } from "../src/model";
export { ok };

/** The testkit's waitFor, by default 20 s at most, every 60 ms. */
export const waitFor = <T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 20_000) => sharedWaitFor(what, read, good, ms, 60);

export type { TestCore, TenantFixture };

/** Lets what just happened run its course before a test says nothing followed from it. */
export const settle = (ms = 700) => new Promise((r) => setTimeout(r, ms));

/** A core whose outbound URL policy lets webhooks reach the test's local servers. */
export function engineCore(opts: Parameters<typeof startCore>[0] = {}): Promise<TestCore> {
  return startCore({ ...opts, env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1", NAMESPACE: `flows-${uid()}`, ...(opts.env ?? {}) } });
}

export interface BotTenant extends TenantFixture {
  conn: number;
}

/** A PLUS tenant (more than one active flow) with a web chat connection in its first queue. */
export async function botTenant(t: TestCore): Promise<BotTenant> {
  const f = await createTenant(t, { tier: "PLUS" });
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin), 201);
  return { ...f, conn: c.id as number };
}

// --- flows ----------------------------------------------------------------------------------

let seq = 0;
export const node = (id: string, data: NodeData): FlowNode => ({ id, type: data.type, position: { x: 0, y: 120 * seq++ }, data });
export const edge = (source: string, target: string, sourceHandle: string | null = null): FlowEdge => ({ id: `${source}-${sourceHandle ?? "out"}-${target}`, source, target, sourceHandle });
export const start = () => node("start", { type: "start", name: "Início" });

export async function createFlow(t: TestCore, who: Auth, body: Record<string, unknown>): Promise<Flow> {
  const r = await t.api.post<Flow>("/chatbot-flows/flows", { active: true, ...body }, who);
  if (r.status !== 200 && r.status !== 201) throw new Error(`flow not created: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A chat flow bound as the connection's entry flow: new tickets of the connection start in it. */
export async function chatFlowOn(t: TestCore, f: BotTenant, nodes: FlowNode[], edges: FlowEdge[], settings: Record<string, unknown> = {}): Promise<Flow> {
  const flow = await createFlow(t, f.admin, { kind: "chat", name: `Fluxo ${uid()}`, settings, graph: { nodes, edges } });
  await ok(t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: f.conn, entryFlowId: flow.id }, f.admin));
  return flow;
}

export async function runsOf(t: TestCore, who: Auth, flowId: number) {
  return t.api.get(`/chatbot-flows/flows/runs?id=${flowId}`, who);
}

/** The flow's runs once the ticket's conversation has ended (its last turn written back). */
export function endedRuns(t: TestCore, who: Auth, flowId: number, ticketId: number): Promise<FlowRun[]> {
  return waitFor(
    `ticket ${ticketId}'s run ended`,
    async () => (await runsOf(t, who, flowId)).body as FlowRun[],
    (runs) => runs.some((r) => r.ticketId === ticketId && r.status !== "running"),
  );
}

/**
 * Waits until the ticket's conversation waits at `nodeId` (its visit recorded running): the turn
 * that asked has ended, its timer set. A test that moves the clock waits for this first.
 */
export function waitAsked(t: TestCore, who: Auth, flowId: number, ticketId: number, nodeId: string) {
  return waitFor(
    `ticket ${ticketId} waiting at ${nodeId}`,
    async () => ((await runsOf(t, who, flowId)).body as FlowRun[]).find((r) => r.ticketId === ticketId && r.status === "running")?.steps.at(-1),
    (st) => st?.nodeId === nodeId && st.state === "running",
  );
}

// --- customers and what they see ------------------------------------------------------------

export class Customer {
  readonly externalId = `visitor-${uid()}`;
  ticketId = 0;

  constructor(
    private t: TestCore,
    private f: BotTenant,
    readonly name = "Ana Souza",
    private connectionId = f.conn,
  ) {}

  async say(body: string, providerMessageId = `m-${uid()}`) {
    const r = (await this.t.core.broker.call("channels.inbound", {
      tenantId: this.f.tenantId,
      connectionId: this.connectionId,
      providerMessageId,
      timestamp: Date.now(),
      from: { externalId: this.externalId, name: this.name },
      body,
    })) as { messageId: number; ticketId: number; duplicate: boolean };
    this.ticketId = r.ticketId;
    return r;
  }

  /** The bot's texts on this customer's ticket (or another of theirs), oldest first. */
  sent(ticketId = this.ticketId): Promise<string[]> {
    return botSent(this.t, this.f.tenantId, ticketId);
  }

  /** Waits until the bot has sent `n` texts on the ticket; answers them all. */
  waitSent(n: number, ticketId = this.ticketId): Promise<string[]> {
    return waitFor(`${n} bot message(s) on ticket ${ticketId}`, () => this.sent(ticketId), (m) => m.length >= n);
  }

  ticket(ticketId = this.ticketId) {
    return ticketOf(this.t, this.f.tenantId, ticketId);
  }
}

export async function botSent(t: TestCore, tenantId: number, ticketId: number): Promise<string[]> {
  const rows = await t.core.sequelize.query<{ body: string }>("SELECT body FROM messages WHERE tenantId = ? AND ticketId = ? AND fromMe = 1 AND userId IS NULL ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => r.body);
}

export interface TicketState {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  contactId: number;
  chatbotPluginId: string | null;
  chatbotRef: string | null;
}

export const ticketOf = (t: TestCore, tenantId: number, id: number) => t.core.broker.call("tickets.getInternal", { tenantId, id }) as Promise<TicketState>;

export async function logsOf(t: TestCore, tenantId: number, ticketId: number): Promise<Array<{ type: string; userId: number | null; data: any }>> {
  const rows = await t.core.sequelize.query<{ type: string; userId: number | null; data: unknown }>("SELECT type, userId, data FROM ticket_logs WHERE tenantId = ? AND ticketId = ? ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => ({ ...r, data: typeof r.data === "string" ? JSON.parse(r.data) : r.data }));
}

export const waitStatus = (c: Customer, status: string, ticketId?: number) => waitFor(`ticket ${ticketId ?? c.ticketId} ${status}`, () => c.ticket(ticketId), (tk) => tk.status === status);
