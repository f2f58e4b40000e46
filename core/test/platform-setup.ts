/**
 * What the core API tests share (platform-api.test.ts, platform-events.test.ts): a core whose
 * plugin host also loads the fixture plugins (the channel fixture for traffic, the probe that
 * calls the core API and records the events it is delivered), and tenants the probe is
 * allowed for.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import { io as ioClient, type Socket } from "socket.io-client";
import type { PlatformActions } from "@openatende/plugin-sdk";
import { startCore, createSuper, type Auth, type Dialect, type TestCore, type TenantFixture } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";

export const FIXTURES = path.join(__dirname, "fixtures-plugins");
export const PROBE = "module-platform-probe";
export const PROBE_SERVICE = `v1.${PROBE}`;

export const waitFor = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 10_000): Promise<T> => {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export async function rejection(p: Promise<unknown>): Promise<{ type?: string; code?: number; data?: Record<string, any> }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; code?: number };
  }
  throw new Error("expected a rejection");
}

/**
 * The core with the fixture plugins in its process; with `external` (PLUGINS_EXTERNAL=the probe
 * and a transporter in `env`), the host only lists the probe, which a plugin node runs.
 */
export async function startWithProbe(opts: { env?: Record<string, string>; external?: boolean; dialect?: Dialect } = {}): Promise<{ t: TestCore; sup: Auth }> {
  const t = await startCore({ dialect: opts.dialect, env: { SERVICES: "api,core", ...(opts.external ? { PLUGINS_EXTERNAL: PROBE } : {}), ...opts.env } });
  const dirs = opts.external ? [path.join(FIXTURES, "platform")] : [FIXTURES, path.join(FIXTURES, "platform")];
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: dirs, startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins", "platform", ...(opts.external ? [] : [PROBE_SERVICE, "v2.channel-fixture"])], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.setAllowed", "connections.create", "tickets.update"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { t, sup: await createSuper(t) };
}

/** The super allows the probe and the channel fixture for the tenant. */
export async function allowPlugins(t: TestCore, sup: Auth, tenantId: number, ids = [PROBE, "channel-fixture"]): Promise<void> {
  for (const id of ids) {
    const r = await t.api.put(`/plugins/${id}/tenants/${tenantId}`, { allowed: true }, sup);
    if (r.status !== 200) throw new Error(`allow ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** A connected channel-fixture connection of the tenant. */
export async function fixtureConnection(t: TestCore, tenant: TenantFixture): Promise<number> {
  const c = await t.api.post("/connections", { type: "channel-fixture", name: `Fixture ${tenant.tenantId}`, settings: { greeting: "Olá" } }, tenant.admin);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  await t.api.post(`/connections/${c.body.id}/connect`, {}, tenant.admin);
  return c.body.id as number;
}

/** An inbound message from visitor `key`: its ticket and contact. */
export async function inboundTicket(t: TestCore, tenantId: number, connectionId: number, key: string): Promise<{ ticketId: number; contactId: number }> {
  const r = (await t.core.broker.call("v2.channel-fixture.receive", { tenantId, connectionId, key })) as { ticketId: number };
  const ticket = (await t.core.broker.call("tickets.getInternal", { tenantId, id: r.ticketId })) as { contactId: number };
  return { ticketId: r.ticketId, contactId: ticket.contactId };
}

/** One call of the core API, made by the probe plugin (its client adds who is calling). */
export function probeCall<A extends keyof PlatformActions>(t: TestCore, action: A, params: PlatformActions[A]["params"]): Promise<PlatformActions[A]["result"]> {
  return t.core.broker.call(`${PROBE_SERVICE}.api`, { action, params }) as Promise<PlatformActions[A]["result"]>;
}

export function socketOf(t: TestCore, auth: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: auth.token, sessionId: auth.sessionId }, reconnection: false });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}
