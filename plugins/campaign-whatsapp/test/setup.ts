/**
 * What the campaign plugin's core tests share: a core on MariaDB whose plugin host loads the
 * bundled plugins (campaign-whatsapp among them) and the campaign test channel
 * (fixtures/channel-campaign-fixture), tenants allowed both, and connections of that channel.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import { createSuper, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { createPluginsService } from "../../../core/src/plugins/plugins.service";

export const FIXTURES = path.join(__dirname, "fixtures");
export const CHANNEL = "channel-campaign-fixture";
export const CHANNEL_SERVICE = `v1.${CHANNEL}`;

export async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A core with the campaign channel fixture (on the store of `reuse`: a restart). */
export async function startCampaignCore(reuse?: TestCore["store"]): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core" }, reuse });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 10_000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins", "platform", "v1.campaign-whatsapp", CHANNEL_SERVICE], 60_000);
  // The gateway publishes a service's routes once it has seen it: wait for the ones the tests call first.
  await waitFor(
    "the gateway's routes",
    () => t.core.broker.call("api.listAliases") as Promise<Array<{ actionName: string }>>,
    (aliases) => ["plugins.setAllowed", "connections.create"].every((n) => aliases.some((a) => a.actionName === n)),
  );
  return t;
}

export async function routesReady(t: TestCore, who: Auth): Promise<void> {
  await waitFor("the /campanhas routes", () => t.api.get("/campanhas", who), (r) => r.status !== 404);
}

export async function allow(t: TestCore, sup: Auth, tenantId: number): Promise<void> {
  for (const id of ["campaign-whatsapp", CHANNEL]) {
    const r = await t.api.put(`/plugins/${id}/tenants/${tenantId}`, { allowed: true }, sup);
    if (r.status !== 200) throw new Error(`allow ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

export async function connection(t: TestCore, f: TenantFixture, label: string): Promise<number> {
  const c = await t.api.post("/connections", { type: CHANNEL, name: `${label} ${f.tenantId}`, settings: { label } }, f.admin);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  return c.body.id as number;
}

/** A contact of the tenant: visitor `key` writing in on the connection. */
export async function visitor(t: TestCore, tenantId: number, connectionId: number, key: string): Promise<number> {
  const r = (await t.core.broker.call(`${CHANNEL_SERVICE}.receive`, { tenantId, connectionId, key })) as { ticketId: number };
  const ticket = (await t.core.broker.call("tickets.getInternal", { tenantId, id: r.ticketId })) as { contactId: number };
  return ticket.contactId;
}

export { createSuper };
