/**
 * Shared steps of the Telegram integration tests: a real core (MariaDB, Redis, the plugin
 * host loading this plugin) and a local Bot API server; connections made and connected
 * through the API as an admin would.
 */
import type { TestCore, TenantFixture, Auth } from "@openatende/core/testkit";
import type { FakeBotApi } from "./fake-bot-api";

/** The fake Bot API listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };

export interface TelegramConnection {
  id: number;
  token: string;
  bot: { token: string; id: number; username: string };
  status: string;
  statusDetail: string | null;
}

export async function connectTelegram(t: TestCore, f: TenantFixture, api: FakeBotApi, mode: "webhook" | "polling", name: string): Promise<TelegramConnection> {
  const bot = api.addBot();
  const c = await t.api.post("/connections", { name, type: "channel-telegram", queueId: f.queueIds[0], settings: { token: bot.token, mode, apiRoot: api.url } }, f.admin);
  expect(c.status).toBe(201);
  // The bot token is a secret: the API never shows it.
  expect(c.body.settings.token).toBe("********");
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return { id: c.body.id, token: c.body.token, bot, status: on.body.status, statusDetail: on.body.statusDetail };
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
  contactId: number;
  status: string;
  contact: { name: string };
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
  timestamp: number;
  isDeleted?: boolean;
  isEdited?: boolean;
}

/** The tenant's open or pending tickets whose contact has this name. */
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

/** Waits for the one ticket of a contact, and for it to hold `count` messages. */
export async function ticketWithMessages(t: TestCore, who: Auth, contactName: string, count: number): Promise<{ ticket: TicketView; messages: MessageView[] }> {
  return waitFor(`${count} message(s) from ${contactName}`, async () => {
    const [ticket] = await ticketsOf(t, who, contactName);
    if (!ticket) return null;
    const messages = await messagesOf(t, who, ticket.id);
    return messages.length >= count ? { ticket, messages } : null;
  });
}
