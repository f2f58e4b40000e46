/**
 * Shared steps of the WABA integration tests: a real core (MariaDB, Redis, the plugin host
 * loading this plugin) and the local Graph API; connections made and connected through the
 * API as an admin would, read back the same way.
 */
import type { Auth, TenantFixture, TestCore } from "@openatende/core/testkit";
import type { FakeGraph, FakeNumber } from "./fake-graph";

/** The fake listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };
export const APP_SECRET = "0123456789abcdef0123456789abcdef";
export const VERIFY_TOKEN = "verify-me-please-42";

export interface WabaConnection {
  id: number;
  token: string;
  number: FakeNumber;
  appSecret: string;
  webhook: string;
  status: string;
  statusDetail: string | null;
}

export function settingsFor(graph: FakeGraph, n: FakeNumber, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: VERIFY_TOKEN, appSecret: APP_SECRET, graphUrl: graph.url, ...over };
}

export async function connectWaba(t: TestCore, f: TenantFixture, graph: FakeGraph, opts: { name: string; number?: FakeNumber; settings?: Record<string, unknown> }): Promise<WabaConnection> {
  const number = opts.number ?? graph.addNumber();
  const settings = settingsFor(graph, number, opts.settings);
  const c = await t.api.post("/connections", { name: opts.name, type: "channel-waba", queueId: f.queueIds[0], settings }, f.admin);
  expect(c.status).toBe(201);
  // Tokens and secrets never come back from the API.
  expect(c.body.settings).toMatchObject({ accessToken: "********", appSecret: "********", verifyToken: "********", phoneNumberId: number.pnid });
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return {
    id: c.body.id,
    token: c.body.token,
    number,
    appSecret: String(settings.appSecret),
    webhook: `${t.url}/api/waba/${c.body.token}/webhook`,
    status: on.body.status,
    statusDetail: on.body.statusDetail ?? null,
  };
}

export interface ConnectionView {
  id: number;
  status: string;
  statusDetail: string | null;
  token: string;
}

export async function connectionOf(t: TestCore, who: Auth, id: number): Promise<ConnectionView> {
  const r = await t.api.get(`/connections/${id}`, who);
  expect(r.status).toBe(200);
  return r.body as ConnectionView;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    const v = await probe();
    if (v) return v;
    last = v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await sleep(50);
  }
}

export interface TicketView {
  id: number;
  contactId: number;
  status: string;
  contact: { name: string; number?: string | null };
}

export interface MessageView {
  id: number;
  providerId: string | null;
  fromMe: boolean;
  body: string | null;
  mediaType: string | null;
  media: { fileName: string; mimeType: string; size: number; url: string } | null;
  status: string;
  failReason: string | null;
  quotedMsgId: number | null;
  reactions: Array<{ by: string; emoji: string; fromMe?: boolean }>;
}

export async function ticketsOf(t: TestCore, who: Auth, contactName: string): Promise<TicketView[]> {
  const r = await t.api.get("/tickets?status=pending,open&showAll=true&pageSize=100", who);
  expect(r.status).toBe(200);
  return (r.body.tickets as TicketView[]).filter((x) => x.contact?.name === contactName);
}

export async function messagesOf(t: TestCore, who: Auth, ticketId: number): Promise<MessageView[]> {
  const r = await t.api.get(`/messages/${ticketId}?pageSize=100`, who);
  expect(r.status).toBe(200);
  return r.body.messages as MessageView[];
}

/** Waits for the one ticket of a contact to hold at least `count` messages. */
export function ticketWithMessages(t: TestCore, who: Auth, contactName: string, count: number, ms?: number): Promise<{ ticket: TicketView; messages: MessageView[] }> {
  return waitFor(
    `${count} message(s) from ${contactName}`,
    async () => {
      const [ticket] = await ticketsOf(t, who, contactName);
      if (!ticket) return null;
      const messages = await messagesOf(t, who, ticket.id);
      return messages.length >= count ? { ticket, messages } : null;
    },
    ms,
  );
}

interface HeldStore {
  hold(ref: { tenantId: number; connectionId: number }, id: string, change: unknown): Promise<void>;
  held(ref: { tenantId: number; connectionId: number }): Promise<Array<{ id: string; change: unknown }>>;
}
export interface PluginService {
  settings: Record<string, unknown>;
  deliveries: { idle(): Promise<void>; peak: number };
  channel: { opts: { store: HeldStore } };
}

/** The plugin's service in the test's core (its retry waits can be shortened, its store read). */
export function pluginService(t: TestCore): PluginService {
  const svc = t.core.broker.getLocalService({ name: "channel-waba", version: 1 }) as unknown as PluginService | undefined;
  if (!svc) throw new Error("the channel-waba service is not running in the test core");
  return svc;
}

export const newCustomer = (name: string) => ({ waId: `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`, name: `${name} ${Math.random().toString(36).slice(2, 7)}` });
