/**
 * What the WABA campaign tests share: a core on MariaDB whose plugin host loads the bundled
 * plugins (campaign-waba among them) and the official-API test channel
 * (fixtures/channel-waba-campaign-fixture), tenants allowed both, connections of that channel
 * with their templates, and contacts writing in on them.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import type { ChannelTemplate } from "@openatende/plugin-sdk";
import { createSuper, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { createPluginsService } from "../../../core/src/plugins/plugins.service";

export const CHANNEL = "channel-waba-campaign-fixture";
export const CHANNEL_SERVICE = `v1.${CHANNEL}`;
export const PLUGIN = "campaign-waba";

export async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (let v = await read(); ; v = await read()) {
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A core with the test channel (on the store of `reuse`: a restart), its gateway routes published. */
export async function startWabaCore(reuse?: TestCore["store"]): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core" }, reuse });
  const host: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [path.join(__dirname, "fixtures")], startTimeoutMs: 10_000 }));
  jest.spyOn(host.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins", "platform", `v1.${PLUGIN}`, CHANNEL_SERVICE], 60_000);
  await waitFor(
    "the gateway's routes",
    () => t.core.broker.call("api.listAliases") as Promise<Array<{ actionName: string }>>,
    (aliases) => ["plugins.setAllowed", "connections.create"].every((n) => aliases.some((a) => a.actionName === n)),
  );
  return t;
}

export async function routesReady(t: TestCore, who: Auth): Promise<void> {
  await waitFor("the /campanhaswaba routes", () => t.api.get("/campanhaswaba", who), (r) => r.status !== 404);
}

export async function allow(t: TestCore, sup: Auth, tenantId: number): Promise<void> {
  for (const id of [PLUGIN, CHANNEL]) {
    const r = await t.api.put(`/plugins/${id}/tenants/${tenantId}`, { allowed: true }, sup);
    if (r.status !== 200) throw new Error(`allow ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** A connected connection of `type` (the test channel by default). */
export async function connection(t: TestCore, f: TenantFixture, label: string, type = CHANNEL, settings: Record<string, unknown> = { label }): Promise<number> {
  const c = await t.api.post("/connections", { type, name: `${label} ${f.tenantId}`, settings }, f.admin);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  return c.body.id as number;
}

export function templatesOn(t: TestCore, tenantId: number, connectionId: number, templates: ChannelTemplate[]): Promise<unknown> {
  return t.core.broker.call(`${CHANNEL_SERVICE}.setTemplates`, { tenantId, connectionId, templates });
}

/** A contact of the tenant: visitor `key` (digits) named `name` writing in on the connection. */
export async function visitor(t: TestCore, tenantId: number, connectionId: number, key: string, name: string): Promise<number> {
  const r = (await t.core.broker.call(`${CHANNEL_SERVICE}.receive`, { tenantId, connectionId, key, name })) as { ticketId: number };
  const ticket = (await t.core.broker.call("tickets.getInternal", { tenantId, id: r.ticketId })) as { contactId: number };
  return ticket.contactId;
}

export { createSuper };
