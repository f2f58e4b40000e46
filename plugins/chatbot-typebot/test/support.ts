/**
 * What the Typebot plugin's tests share: a core with the plugin allowed for PLUS tenants, a web
 * chat connection whose customers write through channels.inbound at the test clock's time, and
 * readers of what the platform sent on a ticket and of its logs.
 */
import { randomUUID } from "node:crypto";
import { QueryTypes } from "sequelize";
import { createSuper, uid, type Auth, type Res, type TenantFixture, type TestCore, ok, expectError, waitFor as sharedWaitFor } from "@openatende/core/testkit";
export { ok, expectError };

/** The testkit's waitFor, by default 20 s at most, every 60 ms. */
export const waitFor = <T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 20_000) => sharedWaitFor(what, read, good, ms, 60);

/** A clock the core decides by (startCore({ clock })), moved by the test. */
export class Clock {
  constructor(private t = Date.now()) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Allows the bundled plugin for the tenants (platform level) and waits for its routes. */
export async function allowPlugin(t: TestCore, tenants: TenantFixture[]): Promise<Auth> {
  const sup = await createSuper(t);
  for (const f of tenants) await ok(t.api.put(`/plugins/chatbot-typebot/tenants/${f.tenantId}`, { allowed: true }, sup));
  await waitFor("GET /typebot/settings", () => t.api.get("/typebot/settings", tenants[0].admin), (r) => r.status !== 404);
  return sup;
}

export async function webchat(t: TestCore, f: TenantFixture, queueId = f.queueIds[0]): Promise<{ id: number; token: string }> {
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId }, f.admin), 201);
  return { id: c.id, token: c.token };
}

/** A web chat visitor writing through channels.inbound at the clock's time. */
export class Customer {
  readonly externalId = randomUUID();
  ticketId = 0;
  lastMessageId = 0;

  constructor(
    private t: TestCore,
    private f: TenantFixture,
    private conn: { id: number; token: string },
    private clock: Clock,
    readonly name = "Ana Souza",
  ) {}

  async say(body: string) {
    const r = (await this.t.core.broker.call("channels.inbound", {
      tenantId: this.f.tenantId,
      connectionId: this.conn.id,
      providerMessageId: `m-${uid()}`,
      timestamp: this.clock.now(),
      from: { externalId: this.externalId, name: this.name },
      body,
    })) as { messageId: number; ticketId: number };
    this.ticketId = r.ticketId;
    this.lastMessageId = r.messageId;
    return r;
  }

  /** The texts the web chat holds for this visitor (the channel side). */
  async received(): Promise<string[]> {
    const r = await this.t.api.get(`/webchat/${this.conn.token}/messages?visitorId=${this.externalId}&after=0&wait=0`);
    if (r.status !== 200) throw new Error(`webchat poll: ${r.status} ${JSON.stringify(r.body)}`);
    return (r.body.items as Array<{ kind: string; body?: string }>).filter((i) => i.kind === "text").map((i) => i.body!);
  }
}

export interface Sent {
  body: string;
  mediaType: string | null;
}

/** What the platform sent on a ticket (fromMe, no agent), oldest first. */
export function platformSent(t: TestCore, tenantId: number, ticketId: number): Promise<Sent[]> {
  return t.core.sequelize.query("SELECT body, mediaType FROM messages WHERE tenantId = ? AND ticketId = ? AND fromMe = 1 AND userId IS NULL ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
}

export const waitSent = (t: TestCore, tenantId: number, ticketId: number, n: number) =>
  waitFor(`${n} bot message(s) on ticket ${ticketId}`, () => platformSent(t, tenantId, ticketId), (rows) => rows.length >= n);

export async function ticketRow(t: TestCore, tenantId: number, id: number) {
  return (await t.core.broker.call("tickets.getInternal", { tenantId, id })) as { id: number; status: string; protocol: string | null; queueId: number | null; userId: number | null };
}

export async function logTypes(t: TestCore, tenantId: number, ticketId: number): Promise<string[]> {
  const rows = await t.core.sequelize.query<{ type: string }>("SELECT type FROM ticket_logs WHERE tenantId = ? AND ticketId = ? ORDER BY id", { replacements: [tenantId, ticketId], type: QueryTypes.SELECT });
  return rows.map((r) => r.type);
}
