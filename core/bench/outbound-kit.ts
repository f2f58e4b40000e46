/**
 * What bench:scheduler and bench:campaign share: a real core (MariaDB, Redis, the real clock,
 * the scheduler ticking every second as in production) whose plugin host loads the bundled
 * plugins and the benchmarks' channel (fixtures/channel-bench-fixture), which records every
 * send it is handed; a restart of that core on the same installation (database, data, Redis
 * namespace) in the middle of a run; tenants allowed the plugins; connections of the channel.
 */
import * as path from "node:path";
import Redis from "ioredis";
import type { Service } from "moleculer";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "../test/helpers";
import { createPluginsService } from "../src/plugins/plugins.service";
import type { Tier } from "../src/licence/tiers";
import type { Handed } from "./fixtures/channel-bench-fixture/src/service";
import { sleep } from "./common";

export type { Auth, Handed, TenantFixture, TestCore };
export const CHANNEL = "channel-bench-fixture";
export const CHANNEL_SERVICE = `v1.${CHANNEL}`;
const FIXTURES = path.join(__dirname, "fixtures");

export async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 60_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await sleep(everyMs);
  }
}

export interface OutboundCore {
  t: TestCore;
  namespace: string;
}

/**
 * A core whose plugins include the bench channel; `services` are waited for (the plugin under
 * test). With `restartOf`: the same installation after `t.stop({ keep: true })`.
 */
export async function startOutboundCore(services: string[], restartOf?: OutboundCore, schedulerTickMs?: number): Promise<OutboundCore> {
  const namespace = restartOf?.namespace ?? `bench-out-${uid()}`;
  const t = await startCore({ env: { SERVICES: "api,core", NODE_ENV: "production", LOG_LEVEL: "error", NAMESPACE: namespace, LOGIN_RATE_LIMIT: "100000" }, reuse: restartOf?.t.store, schedulerTickMs });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 20_000 }));
  svc.logger.warn = () => undefined;
  await t.core.broker.waitForServices(["plugins", "platform", CHANNEL_SERVICE, ...services], 120_000);
  await waitFor(
    "the gateway's routes",
    () => t.core.broker.call("api.listAliases") as Promise<Array<{ actionName: string }>>,
    (aliases) => ["plugins.setAllowed", "connections.create"].every((n) => aliases.some((a) => a.actionName === n)),
  );
  return { t, namespace };
}

/** Stops the core and deletes what the run left in Redis under its namespace. */
export async function stopOutboundCore(o: OutboundCore): Promise<void> {
  const prefix = `${o.t.core.deps.redisPrefix()}`;
  await o.t.stop();
  const r = new Redis(o.t.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await r.unlink(...keys);
    } while (cursor !== "0");
  } catch {
    // a leftover namespace is only clutter
  } finally {
    r.disconnect();
  }
}

/** A licensed tenant allowed `plugins` and the bench channel (by a platform super user). */
export async function outboundTenant(t: TestCore, tier: Tier, plugins: string[]): Promise<TenantFixture> {
  const sup = await createSuper(t);
  const f = await createTenant(t, { tier });
  for (const id of [...plugins, CHANNEL]) {
    const r = await t.api.put(`/plugins/${id}/tenants/${f.tenantId}`, { allowed: true }, sup);
    if (r.status !== 200) throw new Error(`allow ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return f;
}

/** A connected connection of the bench channel. */
export async function benchConnection(t: TestCore, who: Auth, label: string): Promise<number> {
  const c = await t.api.post("/connections", { type: CHANNEL, name: label, settings: { label } }, who);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, who);
  if (on.status !== 200) throw new Error(`connect: ${on.status} ${JSON.stringify(on.body)}`);
  return c.body.id as number;
}

/** `n` contacts of the tenant (visitors writing in on the connection), `concurrency` at a time. */
export async function benchContacts(t: TestCore, tenantId: number, connectionId: number, n: number, concurrency = 8): Promise<number[]> {
  const ids: number[] = new Array(n);
  const run = uid();
  await pool(ids, concurrency, async (_, i) => {
    const r = (await t.core.broker.call(`${CHANNEL_SERVICE}.receive`, { tenantId, connectionId, key: `${run}-${i}` })) as { ticketId: number };
    const ticket = (await t.core.broker.call("tickets.getInternal", { tenantId, id: r.ticketId })) as { contactId: number };
    ids[i] = ticket.contactId;
  });
  return ids;
}

/** Everything the bench channel was handed from index `from` on (a restart keeps the records). */
export function handed(t: TestCore, from = 0): Promise<Handed[]> {
  return t.core.broker.call(`${CHANNEL_SERVICE}.handed`, { from }) as Promise<Handed[]>;
}

/** Runs `fn` over `items`, `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
