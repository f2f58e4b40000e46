/**
 * Shared steps of the 360dialog integration tests: a real core (MariaDB, Redis, the plugin host
 * loading this plugin from its folder) and the local 360dialog API; connections made and
 * connected through the API as an admin would, their webhook registered at the fake on connect.
 */
import type { TenantFixture, TestCore } from "@openatende/core/testkit";
import type { Fake360, D360Number } from "./fake-360";

export { LOOPBACK_FAKES, messagesOf, newCustomer, sleep, ticketsOf, ticketWithMessages, waitFor, connectionOf } from "../../channel-waba/test/helpers";
export const PARTNER_SECRET = "partner-secret-0123456789abcdef";

export interface D360Connection {
  id: number;
  token: string;
  number: D360Number;
  status: string;
  statusDetail: string | null;
}

export function settingsFor(fake: Fake360, n: D360Number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiKey: n.apiKey, phoneNumber: `+${n.phone}`, baseUrl: fake.url, ...over };
}

export async function connect360(t: TestCore, f: TenantFixture, fake: Fake360, opts: { name: string; number?: D360Number; settings?: Record<string, unknown> }): Promise<D360Connection> {
  const number = opts.number ?? fake.addNumber();
  const c = await t.api.post("/connections", { name: opts.name, type: "channel-360", queueId: f.queueIds[0], settings: settingsFor(fake, number, opts.settings) }, f.admin);
  expect(c.status).toBe(201);
  // The key never comes back from the API.
  expect(c.body.settings).toMatchObject({ apiKey: "********", phoneNumber: `+${number.phone}` });
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  return { id: c.body.id, token: c.body.token, number, status: on.body.status, statusDetail: on.body.statusDetail ?? null };
}

/** The plugin's service in the test's core. */
export function pluginService(t: TestCore): { settings: Record<string, unknown>; deliveries: { idle(): Promise<void> } } {
  const svc = t.core.broker.getLocalService({ name: "channel-360", version: 1 });
  if (!svc) throw new Error("the channel-360 service is not running in the test core");
  return svc as unknown as { settings: Record<string, unknown>; deliveries: { idle(): Promise<void> } };
}
