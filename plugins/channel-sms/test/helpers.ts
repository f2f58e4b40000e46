/**
 * Shared steps of the SMS integration tests: the connection's settings for a fake Comtele
 * account, a connection made and connected through the API as an admin would, its callback
 * addresses pointed at the test core, and the tenant's tickets and messages read back.
 */
import type { Auth, TenantFixture, TestCore } from "@openatende/core/testkit";
import type { FakeAccount, FakeComtele } from "./fake-comtele";

export const WEBHOOK_SECRET = "sms-test-webhook-secret-0123456789abcdef";
/** The fake listens on 127.0.0.1, which the outbound URL policy refuses unless the platform allows it. */
export const LOOPBACK_FAKES = { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" };

export function accountSettings(api: FakeComtele, account: FakeAccount, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "comtele",
    token: account.token,
    apiUrl: api.url,
    webhookSecret: WEBHOOK_SECRET,
    firstName: "Ana",
    lastName: "Souza",
    email: "ana@loja.test",
    mobile: "5511988887777",
    password: "segredo1",
    taxpayerType: "PJ",
    ...extra,
  };
}

export interface SmsConnection {
  id: number;
  token: string;
  account: FakeAccount;
}

export async function createSmsConnection(t: TestCore, f: TenantFixture, api: FakeComtele, account: FakeAccount, name: string, extra: Record<string, unknown> = {}): Promise<SmsConnection> {
  const c = await t.api.post("/connections", { name, type: "channel-sms", queueId: f.queueIds[0], settings: accountSettings(api, account, extra) }, f.admin);
  expect(c.status).toBe(201);
  // The token, the password and the webhook secret are secrets: the API never shows them.
  expect(c.body.settings).toMatchObject({ token: "********", password: "********", webhookSecret: "********", firstName: "Ana", taxpayerType: "PJ" });
  return { id: c.body.id, token: c.body.token, account };
}

/** Connects it, and sets the account's callbacks (Comtele's panel) to the addresses the plugin gives, on the test core. */
export async function connectSms(t: TestCore, f: TenantFixture, api: FakeComtele, account: FakeAccount, name: string): Promise<SmsConnection & { status: string; statusDetail: string | null }> {
  const made = await createSmsConnection(t, f, api, account, name);
  const on = await t.api.post(`/connections/${made.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  const hooks = await t.api.post("/sms/webhooks", { token: made.token }, f.admin);
  expect(hooks.status).toBe(200);
  const here = (u: string) => u.replace(t.config.publicUrl.replace(/\/+$/, ""), t.url);
  account.callbacks = { status: here(hooks.body.status), inbound: here(hooks.body.inbound) };
  return { ...made, status: on.body.status, statusDetail: on.body.statusDetail ?? null };
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

export interface MessageView {
  id: number;
  providerId: string | null;
  fromMe: boolean;
  body: string | null;
  status: string;
  failReason: string | null;
}

export async function ticketsOf(t: TestCore, who: Auth, contactName: string): Promise<Array<{ id: number; contact: { name: string; number?: string | null } }>> {
  const r = await t.api.get("/tickets?status=pending,open&showAll=true&pageSize=100", who);
  expect(r.status).toBe(200);
  return (r.body.tickets as Array<{ id: number; contact: { name: string; number?: string | null } }>).filter((x) => x.contact?.name === contactName);
}

export async function messagesOf(t: TestCore, who: Auth, ticketId: number): Promise<MessageView[]> {
  const r = await t.api.get(`/messages/${ticketId}?pageSize=100`, who);
  expect(r.status).toBe(200);
  return r.body.messages as MessageView[];
}
