/**
 * Shared steps of the wuzapi integration tests: a real core (MariaDB, Redis, the plugin host
 * loading this plugin) and a local wuzapi server; connections made and connected through the
 * API as an admin would, and read back the same way.
 */
import type { TestCore, TenantFixture, Auth } from "@openatende/core/testkit";
import type { FakeUser, FakeWuzapi } from "./fake-wuzapi";

export const HMAC_KEY = "wuzapi-test-hmac-key-0123456789-abcdef";

/** The fake wuzapi listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };

export interface WuzapiConnection {
  id: number;
  /** The connection's public token (the webhook's path). */
  token: string;
  user: FakeUser;
  status: string;
  qrcode: string | null;
  statusDetail: string | null;
}

export interface ConnectionView {
  id: number;
  status: string;
  qrcode: string | null;
  statusDetail: string | null;
  token: string;
  settings: Record<string, unknown>;
}

export async function createWuzapiConnection(
  t: TestCore,
  f: TenantFixture,
  api: FakeWuzapi,
  opts: { name: string; user?: FakeUser; linked?: boolean; settings?: Record<string, unknown> },
): Promise<{ id: number; token: string; user: FakeUser }> {
  const user = opts.user ?? api.addUser({ linked: opts.linked });
  const settings = { apiUrl: api.url, sessionToken: user.token, hmacKey: HMAC_KEY, webhookFormat: "json", ...(opts.settings ?? {}) };
  const c = await t.api.post("/connections", { name: opts.name, type: "channel-wuzapi", queueId: f.queueIds[0], settings }, f.admin);
  expect(c.status).toBe(201);
  // Tokens and the key are secrets: the API never shows them.
  expect(c.body.settings).toMatchObject({ sessionToken: "********", hmacKey: "********", apiUrl: api.url });
  return { id: c.body.id, token: c.body.token, user };
}

export async function connectWuzapi(t: TestCore, f: TenantFixture, api: FakeWuzapi, opts: { name: string; user?: FakeUser; linked?: boolean; settings?: Record<string, unknown> }): Promise<WuzapiConnection> {
  const made = await createWuzapiConnection(t, f, api, opts);
  const on = await t.api.post(`/connections/${made.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return { ...made, status: on.body.status, qrcode: on.body.qrcode ?? null, statusDetail: on.body.statusDetail ?? null };
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

/** Waits for the connection to reach `status`, answering its view. */
export function statusBecomes(t: TestCore, who: Auth, id: number, status: string, ms = 20_000): Promise<ConnectionView> {
  let seen = "";
  return waitFor(
    `connection ${id} to become ${status}`,
    async () => {
      const c = await connectionOf(t, who, id);
      seen = `${c.status} (${c.statusDetail ?? ""})`;
      return c.status === status ? c : null;
    },
    ms,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; it is ${seen}`);
  });
}

export interface TicketView {
  id: number;
  contactId: number;
  status: string;
  isGroup?: boolean;
  contact: { name: string; number?: string | null };
}

export interface MessageView {
  id: number;
  providerId: string | null;
  fromMe: boolean;
  userId: number | null;
  body: string | null;
  mediaType: string | null;
  media: { fileName: string; mimeType: string; size: number; url: string } | null;
  status: string;
  failReason: string | null;
  quotedMsgId: number | null;
  reactions: Array<{ by: string; emoji: string; fromMe?: boolean }>;
  participant: { externalId: string; name?: string; phone?: string } | null;
  isEdited: boolean;
  isDeleted: boolean;
  timestamp: number;
}

/** The tenant's tickets (any open status, groups too) whose contact has this name. */
export async function ticketsOf(t: TestCore, who: Auth, contactName: string): Promise<TicketView[]> {
  const r = await t.api.get("/tickets?status=pending,open,group&showAll=true&pageSize=100", who);
  expect(r.status).toBe(200);
  return (r.body.tickets as TicketView[]).filter((x) => x.contact?.name === contactName);
}

export async function messagesOf(t: TestCore, who: Auth, ticketId: number): Promise<MessageView[]> {
  const r = await t.api.get(`/messages/${ticketId}?pageSize=100`, who);
  expect(r.status).toBe(200);
  return r.body.messages as MessageView[];
}

/** Waits for the one ticket of a contact, and for it to hold `count` messages. */
export async function ticketWithMessages(t: TestCore, who: Auth, contactName: string, count: number): Promise<{ ticket: TicketView; messages: MessageView[] }> {
  return waitFor(`${count} message(s) from ${contactName}`, async () => {
    const [ticket] = await ticketsOf(t, who, contactName);
    if (!ticket) return null;
    const messages = await messagesOf(t, who, ticket.id);
    return messages.length >= count ? { ticket, messages } : null;
  });
}

/** The plugin's service in the test's core (its poll times can be shortened). */
export function pluginService(t: TestCore): { settings: Record<string, unknown> } {
  const svc = t.core.broker.getLocalService({ name: "channel-wuzapi", version: 1 }) as unknown as { settings: Record<string, unknown> } | undefined;
  if (!svc) throw new Error("the channel-wuzapi service is not running in the test core");
  return svc;
}
