/**
 * Shared steps of the Instagram integration tests: a real core (MariaDB, Redis, the plugin
 * host loading this plugin) and the local Graph API; connections made and connected through
 * the API as an admin would, read back the same way.
 */
import type { Auth, TenantFixture, TestCore } from "@openatende/core/testkit";
import type { FakeAccount, FakeGraph } from "./fake-graph";

/** The fake listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };
export const APP_SECRET = "ig-app-secret-0123456789abcdef";
export const VERIFY_TOKEN = "verify-instagram-42";

export interface IgConnection {
  id: number;
  token: string;
  account: FakeAccount;
  appSecret: string;
  webhook: string;
  status: string;
}

export function settingsFor(graph: FakeGraph, a: FakeAccount, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    flavour: a.flavour,
    igAccountId: a.igAccountId,
    ...(a.flavour === "page" ? { pageId: a.pageId } : {}),
    accessToken: a.token,
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
    apiVersion: "v23.0",
    graphUrl: graph.url,
    ...over,
  };
}

export async function connectInstagram(t: TestCore, f: TenantFixture, graph: FakeGraph, opts: { name: string; account?: FakeAccount; settings?: Record<string, unknown> }): Promise<IgConnection> {
  const account = opts.account ?? graph.addAccount();
  const settings = settingsFor(graph, account, opts.settings);
  const c = await t.api.post("/connections", { name: opts.name, type: "channel-instagram", queueId: f.queueIds[0], settings }, f.admin);
  expect(c.status).toBe(201);
  // Tokens and secrets never come back from the API.
  expect(c.body.settings).toMatchObject({ accessToken: "********", appSecret: "********", verifyToken: "********", igAccountId: account.igAccountId });
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return { id: c.body.id, token: c.body.token, account, appSecret: String(settings.appSecret), webhook: `${t.url}/api/instagram/${c.body.token}/webhook`, status: on.body.status };
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
  contactId: number;
  contact: { name: string; profilePicUrl?: string | null };
}

export interface MessageView {
  id: number;
  providerId: string | null;
  fromMe: boolean;
  body: string | null;
  status: string;
  failReason: string | null;
  media: { url: string; fileName?: string; mimeType?: string } | null;
  reactions?: unknown;
  isDeleted?: boolean;
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
