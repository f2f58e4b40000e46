/**
 * Shared steps of the hub's integration tests: a real core (MariaDB, Redis, the plugin host
 * loading this plugin) and a local NotificaMe; connections made and connected through the API
 * as an admin would, and tickets read back the same way.
 */
import type { Auth, TenantFixture, TestCore } from "@openatende/core/testkit";
import type { FakeChannel, FakeNotificaMe } from "./fake-notificame";

/** The fake hub listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };

export interface HubConnection {
  id: number;
  /** The connection's public token (in the webhook's path). */
  token: string;
  secret: string;
  channel: FakeChannel;
  status: string;
}

let secrets = 0;
export const newTestSecret = () => `test-secret-${process.pid}-${++secrets}-${"x".repeat(32)}`.replace(/[^A-Za-z0-9_-]/g, "_");

export async function connectHub(
  t: TestCore,
  f: TenantFixture,
  hub: FakeNotificaMe,
  opts: { name: string; variant?: string; channel?: FakeChannel; settings?: Record<string, unknown> },
): Promise<HubConnection> {
  const variant = opts.variant ?? "instagram";
  const channel = opts.channel ?? hub.addChannel(variant);
  const secret = newTestSecret();
  const settings = { variant, channelToken: channel.id, apiToken: channel.apiToken, webhookSecret: secret, apiUrl: hub.url, ...(opts.settings ?? {}) };
  const c = await t.api.post("/connections", { name: opts.name, type: "channel-hub", queueId: f.queueIds[0], settings }, f.admin);
  expect(c.status).toBe(201);
  // Tokens and the secret are never shown by the API.
  expect(c.body.settings).toMatchObject({ variant, channelToken: "********", apiToken: "********", webhookSecret: "********" });
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return { id: c.body.id, token: c.body.token, secret, channel, status: on.body.status };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export interface TicketView {
  id: number;
  status: string;
  whatsappId?: number;
  connectionId?: number;
  contact: { name: string };
}

export interface MessageView {
  id: number;
  providerId: string | null;
  fromMe: boolean;
  body: string | null;
  status: string;
  failReason: string | null;
  media: { url: string; fileName?: string; mimeType?: string } | null;
  timestamp: number;
}

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

export function ticketWithMessages(t: TestCore, who: Auth, contactName: string, count: number): Promise<{ ticket: TicketView; messages: MessageView[] }> {
  return waitFor(`${count} message(s) from ${contactName}`, async () => {
    const [ticket] = await ticketsOf(t, who, contactName);
    if (!ticket) return null;
    const messages = await messagesOf(t, who, ticket.id);
    return messages.length >= count ? { ticket, messages } : null;
  });
}
