/** One Session on a fake socket factory, a fake clock and the real auth store (SQLite), with what it reported. */
import type { StatusEvent } from "@openatende/plugin-sdk";
import type { PluginData } from "@openatende/plugin-sdk";
import { TableAuthStore } from "../../../src/stores/auth-state";
import { SharedKeyCache } from "../../../src/session/key-cache";
import { DEFAULT_SESSION_OPTIONS, Session, type SessionOptions } from "../../../src/session/session";
import { parseSettings } from "../../../src/session/settings";
import { FakeClock } from "./fake-clock";
import { FakeSocketFactory } from "./fake-socket";

export interface Kit {
  session: Session;
  factory: FakeSocketFactory;
  clock: FakeClock;
  store: TableAuthStore;
  reports: StatusEvent[];
  fencedOff: number;
  /** The last status reported, and its detail's key. */
  last(): StatusEvent;
  lastKey(): string | undefined;
}

export interface KitOptions {
  data: PluginData;
  connectionId: number;
  clock?: FakeClock;
  factory?: FakeSocketFactory;
  settings?: Record<string, unknown>;
  options?: Partial<SessionOptions>;
  lock?: () => "mine" | "other" | "none";
}

export function sessionKit(o: KitOptions): Kit {
  const clock = o.clock ?? new FakeClock();
  const factory = o.factory ?? new FakeSocketFactory(() => clock.now());
  const ref = { tenantId: 3, connectionId: o.connectionId };
  const store = new TableAuthStore(o.data.forTenant(ref.tenantId), ref.connectionId, { now: () => clock.now() });
  const parsed = parseSettings(o.settings ?? {});
  if (!parsed.ok) throw new Error(parsed.detail);
  const cache = new SharedKeyCache();
  const kit = {
    factory,
    clock,
    store,
    reports: [] as StatusEvent[],
    fencedOff: 0,
    last() {
      const r = kit.reports[kit.reports.length - 1];
      if (!r) throw new Error("nothing reported");
      return r;
    },
    lastKey() {
      return /^\[([a-z-]+)\]/.exec(kit.reports[kit.reports.length - 1]?.detail ?? "")?.[1];
    },
  } as Kit;
  kit.session = new Session({
    ref,
    settings: parsed.settings,
    factory,
    auth: store,
    keyCache: cache.view(`${ref.tenantId}:${ref.connectionId}`),
    retryCache: cache.view(`${ref.tenantId}:${ref.connectionId}:retries`),
    clock,
    random: () => 0.5,
    options: { ...DEFAULT_SESSION_OPTIONS, ...(o.options ?? {}) },
    nodeId: "node-a",
    lockState: async () => o.lock?.() ?? "mine",
    report: (s) => kit.reports.push(s),
    route: () => undefined,
    getMessage: async () => undefined,
    onFencedOff: () => kit.fencedOff++,
    log: { info: () => undefined, warn: () => undefined },
  });
  return kit;
}
