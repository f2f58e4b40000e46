/**
 * What the chatbot tests share (core/test/chatbots*.test.ts): a core whose plugin host loads the
 * channel fixture (traffic), the core API probe (a plugin that is not a chatbot) and the chatbot
 * fixture (fixtures-plugins/chatbot: records what it is handed, answers "echo …"), tenants that
 * may use them, and customers writing through channels.inbound.
 */
import * as path from "node:path";
import { QueryTypes } from "sequelize";
import type { Service } from "moleculer";
import type { ChatbotInbound, PlatformActions } from "@openatende/plugin-sdk";
import { createPluginsService } from "../src/plugins/plugins.service";
import type { Clock } from "../src/lib/clock";
import { createSuper, createTenant, startCore, uid, type Auth, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, fixtureConnection, FIXTURES, PROBE, PROBE_SERVICE } from "./platform-setup";

export const BOT = "chatbot-fixture";
export const BOT_SERVICE = `v1.${BOT}`;

export type Received = ChatbotInbound & { receivedAt: number; repliedAt?: number };

export async function startWithBot(opts: { clock?: Clock } = {}): Promise<{ t: TestCore; sup: Auth }> {
  const t = await startCore({ env: { SERVICES: "api,core" }, clock: opts.clock, schedulerTickMs: opts.clock ? 0 : undefined });
  const dirs = [FIXTURES, path.join(FIXTURES, "platform"), path.join(FIXTURES, "chatbot")];
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: dirs, startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins", "platform", "chatbots", PROBE_SERVICE, BOT_SERVICE, "v2.channel-fixture"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.setAllowed", "connections.create", "tickets.update"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { t, sup: await createSuper(t) };
}

/** A tenant (PLUS) that may use the three fixtures, with a connected fixture connection. */
export async function botTenant(t: TestCore, sup: Auth): Promise<TenantFixture & { conn: number }> {
  const f = await createTenant(t, { tier: "PLUS" });
  await allowPlugins(t, sup, f.tenantId, [PROBE, "channel-fixture", BOT]);
  return { ...f, conn: await fixtureConnection(t, f) };
}

/** One call of the core API as the chatbot fixture. */
export function botCall<A extends keyof PlatformActions>(t: TestCore, action: A, params: PlatformActions[A]["params"]): Promise<PlatformActions[A]["result"]> {
  return t.core.broker.call(`${BOT_SERVICE}.api`, { action, params }) as Promise<PlatformActions[A]["result"]>;
}

export const received = (t: TestCore) => t.core.broker.call(`${BOT_SERVICE}.received`) as Promise<Received[]>;
export const resetBot = (t: TestCore) => t.core.broker.call(`${BOT_SERVICE}.reset`);

/** A customer of a connection: each `say` is one message through channels.inbound. */
export class Visitor {
  readonly externalId = `visitor-${uid()}`;
  ticketId = 0;
  constructor(
    private t: TestCore,
    private tenantId: number,
    private connectionId: number,
    private o: { isGroup?: boolean; fromMe?: boolean; imported?: boolean; now?: () => number } = {},
  ) {}

  async say(body: string, providerMessageId = `m-${uid()}`): Promise<{ messageId: number; ticketId: number; duplicate: boolean }> {
    const r = (await this.t.core.broker.call("channels.inbound", {
      tenantId: this.tenantId,
      connectionId: this.connectionId,
      providerMessageId,
      timestamp: this.o.now?.() ?? Date.now(),
      from: { externalId: this.externalId, name: "Ana Souza" },
      body,
      ...(this.o.isGroup ? { isGroup: true, participant: { externalId: `member-${uid()}` } } : {}),
      ...(this.o.fromMe ? { fromMe: true } : {}),
      ...(this.o.imported ? { imported: {} } : {}),
    })) as { messageId: number; ticketId: number; duplicate: boolean };
    this.ticketId = r.ticketId;
    return r;
  }
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

/** The bodies the platform sent on the ticket (fromMe, no agent), oldest first. */
export async function platformSent(t: TestCore, tenantId: number, ticketId: number): Promise<string[]> {
  const rows = await t.core.sequelize.query<{ body: string }>("SELECT body FROM messages WHERE tenantId = ? AND ticketId = ? AND fromMe = 1 AND userId IS NULL ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => r.body);
}

/** The inbounds of one ticket the bot got so far. */
export const ofTicket = (list: Received[], ticketId: number) => list.filter((r) => r.ticket.id === ticketId);

/** Lets what just happened run its course before a test says nothing followed from it. */
export const settle = (ms = 500) => new Promise((r) => setTimeout(r, ms));
