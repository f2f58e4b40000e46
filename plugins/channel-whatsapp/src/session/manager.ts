/**
 * The sessions this node runs, and how the cluster shares them out. A session runs only
 * where its owner lock is held (owner-lock.ts); `connect` adds it to the cluster's wanted
 * registry and tries to take it; a node that cannot is told who holds it (the caller forwards
 * there). Every `sweepMs` each node:
 *
 * - drops the sessions it runs that are no longer wanted (disconnected through another node);
 * - takes wanted sessions nobody holds (their node stopped, released them or died and let the
 *   lock expire), reading their settings again from the core by the connection's token.
 *
 * A session that stops for good (logged out, banned, QR codes unscanned, conflict, outdated
 * version) leaves the registry and releases its lock: nothing restarts it until a user
 * connects, resets or asks for a pairing code. Its last health stays readable here.
 */
import { reportStatus, resolveToken, type Caller, type ConnectParams, type ConnectionRef, type MediaRef, type OutboundMessage, type PluginData, type StatusEvent } from "@openatende/plugin-sdk";
import type { BuildSend, BuiltSend, SessionPort } from "../ports";
import { TableAuthStore, FencedOffError } from "../stores/auth-state";
import { TableLidDirectory } from "../stores/lid-directory";
import { TableMessageKeys } from "../stores/message-keys";
import { TableSentLog } from "../stores/sent-log";
import type { Clock } from "./clock";
import { EventRouter, RecentIds, type GroupCache, type MessageSide, type PictureCache } from "./events";
import type { SessionHealth } from "./health";
import type { SharedKeyCache } from "./key-cache";
import type { Holder, OwnerLock, OwnerLocks, WantedSession } from "./owner-lock";
import { SendPacer } from "./send-pacer";
import { Session, type SessionOptions } from "./session";
import { sessionPort } from "./session-port";
import { parseSettings, type WhatsAppSettings } from "./settings";
import type { SocketFactory } from "./socket-factory";
import { detail } from "./status-detail";
import { waLogger } from "./wa-logger";

export interface ManagerDeps {
  /** Calls to the core made outside any request (statuses, inbound), as this service. */
  core: Caller;
  /** The plugin's own database. */
  data(): Promise<PluginData>;
  locks: OwnerLocks;
  factory: SocketFactory;
  clock: Clock;
  random(): number;
  options: SessionOptions;
  messages: MessageSide & { buildSend: BuildSend; externalIdOf(jid: string): string };
  /** The message side's group directory and picture cache for a session (they outlive its sockets). */
  groupsFor?(ref: ConnectionRef, port: SessionPort): GroupCache;
  picturesFor?(ref: ConnectionRef): PictureCache;
  keyCache: SharedKeyCache;
  /** Least time between two sends of one session (ms). */
  sendIntervalMs?: number;
  /** How often the wanted registry is looked at (default 5 s). */
  sweepMs?: number;
  nodeId: string;
  log: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
}

export interface Entry {
  ref: ConnectionRef;
  key: string;
  settings: WhatsAppSettings;
  session: Session;
  lock: OwnerLock;
  router: EventRouter;
  port: SessionPort;
  keys: TableMessageKeys;
  sent: TableSentLog;
  auth: TableAuthStore;
  pacer: SendPacer;
  groups?: GroupCache;
}

export type ConnectOutcome = { kind: "local"; entry: Entry } | { kind: "remote"; holder: Holder | null } | { kind: "invalid"; detail: string };

const keyOf = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;

/** Settings whose change needs a new socket (the rest is read when used). */
function socketSettingsChanged(a: WhatsAppSettings, b: WhatsAppSettings): boolean {
  return a.proxyUrl !== b.proxyUrl || a.pairingPhone !== b.pairingPhone || a.browser.join("|") !== b.browser.join("|");
}

export class SessionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly taking = new Map<string, Promise<ConnectOutcome>>();
  private readonly lastHealth = new Map<string, SessionHealth>();
  private readonly reports = new Map<string, Promise<void>>();
  private sweepTimer?: ReturnType<Clock["setTimeout"]>;
  private sweeping = false;
  private closed = false;

  constructor(private readonly d: ManagerDeps) {}

  local(ref: ConnectionRef): Entry | undefined {
    const e = this.entries.get(keyOf(ref));
    return e && e.ref.tenantId === ref.tenantId ? e : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** A connect of the connection under way on this node (its session is being set up here). */
  pending(ref: ConnectionRef): Promise<ConnectOutcome> | undefined {
    return this.taking.get(keyOf(ref));
  }

  holder(ref: ConnectionRef): Promise<Holder | null> {
    return this.d.locks.holder(ref);
  }

  /** The health of a session run here, or the last one seen of a session that stopped here. */
  health(ref: ConnectionRef): SessionHealth | undefined {
    return this.local(ref)?.session.snapshot() ?? this.lastHealth.get(keyOf(ref));
  }

  /** Runs (or keeps running) the connection's session here, or says who runs it. */
  async connect(p: ConnectParams): Promise<ConnectOutcome> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const parsed = parseSettings(p.settings);
    const key = keyOf(ref);
    if (!parsed.ok) {
      const e = this.local(ref);
      if (e) await this.drop(e, { unwant: true });
      return { kind: "invalid", detail: detail("settings", parsed.detail) };
    }
    await this.d.locks.want({ ...ref, ...(p.token ? { token: p.token } : { settings: p.settings }), ...(p.publicUrl ? { publicUrl: p.publicUrl } : {}), ...(p.dataDir ? { dataDir: p.dataDir } : {}) });
    const running = this.taking.get(key);
    if (running) return running;
    const p2 = this.connectNow(ref, parsed.settings).finally(() => this.taking.delete(key));
    this.taking.set(key, p2);
    return p2;
  }

  private async connectNow(ref: ConnectionRef, settings: WhatsAppSettings): Promise<ConnectOutcome> {
    const existing = this.local(ref);
    if (existing) {
      if (socketSettingsChanged(existing.settings, settings)) {
        existing.settings = settings;
        existing.session.stop(false);
        existing.session = this.newSession(existing);
      } else existing.settings = settings;
      await existing.session.start();
      return { kind: "local", entry: existing };
    }
    const entry = await this.take(ref, settings);
    if (!entry) return { kind: "remote", holder: await this.d.locks.holder(ref) };
    await entry.session.start();
    return { kind: "local", entry };
  }

  /** Stops the session wherever it runs: here at once, elsewhere by leaving the registry. */
  async disconnect(ref: ConnectionRef): Promise<{ local: boolean; holder: Holder | null }> {
    await this.d.locks.unwant(ref);
    const e = this.local(ref);
    if (e) {
      await this.drop(e, { unwant: false });
      return { local: true, holder: null };
    }
    return { local: false, holder: await this.d.locks.holder(ref) };
  }

  /** The message side's payload for a send of this session. */
  buildSend(e: Entry, to: string, message: OutboundMessage, readMedia: (m: MediaRef) => Promise<Buffer>): Promise<BuiltSend> {
    return this.d.messages.buildSend(e.port, e.keys, to, message, readMedia);
  }

  /** Wipes a session nobody runs (reset of a stopped connection): its stored creds and keys. */
  async wipeStored(ref: ConnectionRef): Promise<boolean> {
    const data = (await this.d.data()).forTenant(ref.tenantId);
    const auth = new TableAuthStore(data, ref.connectionId);
    const had = await auth.hasSession();
    await auth.wipe();
    this.d.keyCache.view(keyOf(ref)).flushAll();
    return had;
  }

  /** Shutdown: every session ends without logout and its lock is released (another node takes it). */
  async stop(): Promise<void> {
    this.closed = true;
    this.d.clock.clearTimeout(this.sweepTimer);
    await Promise.all([...this.entries.values()].map((e) => this.drop(e, { unwant: false, quiet: true })));
    await Promise.all([...this.reports.values()]);
  }

  startSweep(): void {
    if (this.closed) return;
    this.sweepTimer = this.d.clock.setTimeout(() => {
      void this.sweep().finally(() => this.startSweep());
    }, this.d.sweepMs ?? 5000);
  }

  /** One look at the registry (see the file's comment). */
  async sweep(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      const wanted = await this.d.locks.wanted();
      const wantedKeys = new Set(wanted.map(keyOf));
      for (const e of [...this.entries.values()]) if (!wantedKeys.has(e.key)) await this.drop(e, { unwant: false });
      for (const w of wanted) {
        if (this.closed) return;
        if (this.entries.has(keyOf(w)) || this.taking.has(keyOf(w))) continue;
        if (await this.d.locks.holder(w)) continue;
        await this.takeOver(w).catch((err: Error) => this.d.log.warn(`connection ${w.connectionId}: not taken over: ${err.message}`));
      }
    } catch (err) {
      this.d.log.warn(`session sweep failed: ${(err as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  private async takeOver(w: WantedSession): Promise<void> {
    let settings = w.settings ?? {};
    if (w.token) {
      const r = await resolveToken(this.d.core, w.token);
      // Deleted, or moved to another tenant's connection (never): it is no longer wanted.
      if (!r || r.tenantId !== w.tenantId || r.connectionId !== w.connectionId) return this.d.locks.unwant(w);
      if (r.status === "inactive") return;
      settings = r.settings;
    }
    this.d.log.info(`connection ${w.connectionId}: taking the session over on ${this.d.nodeId}`);
    await this.connect({ tenantId: w.tenantId, connectionId: w.connectionId, settings, ...(w.token ? { token: w.token } : {}), ...(w.publicUrl ? { publicUrl: w.publicUrl } : {}), ...(w.dataDir ? { dataDir: w.dataDir } : {}) });
  }

  // --- entries --------------------------------------------------------------------------------

  private async take(ref: ConnectionRef, settings: WhatsAppSettings): Promise<Entry | null> {
    const lock = await this.d.locks.acquire(ref);
    if (!lock) return null;
    const data = (await this.d.data()).forTenant(ref.tenantId);
    const now = () => this.d.clock.now();
    const auth = new TableAuthStore(data, ref.connectionId, { fence: lock.fence, now });
    try {
      await auth.claim();
    } catch (err) {
      await lock.release();
      if (err instanceof FencedOffError) return null;
      throw err;
    }
    const key = keyOf(ref);
    const keys = new TableMessageKeys(data, ref.connectionId, { now });
    const lids = new TableLidDirectory(data, ref.connectionId, auth.keys, now);
    const entry = { ref, key, settings, lock, keys, auth, sent: new TableSentLog(data, ref.connectionId), pacer: new SendPacer(this.d.clock, this.d.sendIntervalMs) } as Entry;
    const logger = waLogger(this.d.log, `connection ${ref.connectionId}`, "warn", this.d.clock);
    entry.port = sessionPort(ref, () => entry.session?.socket, logger);
    entry.groups = this.d.groupsFor?.(ref, entry.port);
    const recent = new RecentIds();
    entry.router = new EventRouter({
      ref,
      core: this.d.core,
      port: entry.port,
      lids,
      keys,
      messages: this.d.messages,
      importSettings: () => entry.settings.importSettings,
      get health() {
        return entry.session.health;
      },
      recent,
      clock: this.d.clock,
      ...(entry.groups ? { groups: entry.groups } : {}),
      ...(this.d.picturesFor ? { pictures: this.d.picturesFor(ref) } : {}),
      externalIdOf: (jid) => this.d.messages.externalIdOf(jid),
      log: this.d.log,
    });
    entry.session = this.newSession(entry);
    lock.onLost = (why) => {
      this.d.log.warn(`connection ${ref.connectionId}: owner lock lost (${why}); the socket is ended`);
      void this.drop(entry, { unwant: false, quiet: true });
    };
    this.entries.set(key, entry);
    void keys.prune().catch(() => undefined);
    return entry;
  }

  private newSession(entry: Entry): Session {
    const ref = entry.ref;
    const session: Session = new Session({
      ref,
      settings: entry.settings,
      factory: this.d.factory,
      auth: entry.auth,
      keyCache: this.d.keyCache.view(entry.key),
      retryCache: this.d.keyCache.view(`${entry.key}:retries`),
      clock: this.d.clock,
      random: this.d.random,
      options: this.d.options,
      nodeId: this.d.nodeId,
      lockState: async () => ((await entry.lock.verify()) ? "mine" : (await this.d.locks.holder(ref)) ? "other" : "none"),
      report: (s) => this.report(entry, session, s),
      route: (_sock, on) => entry.router.attach(on),
      getMessage: (key) => (key.id ? entry.keys.messageOf(key.id) : Promise.resolve(undefined)),
      ...(entry.groups ? { cachedGroupMetadata: (jid: string) => entry.groups!.cachedGroupMetadata(jid) } : {}),
      onFencedOff: () => void this.drop(entry, { unwant: false, quiet: true }),
      log: this.d.log,
    });
    return session;
  }

  /** Reports in order per connection; a session that stopped for good leaves the registry. */
  private report(entry: Entry, session: Session, s: StatusEvent): void {
    const prev = this.reports.get(entry.key) ?? Promise.resolve();
    const next = prev
      .then(() => reportStatus(this.d.core, { ...s, ...(s.detail ? { detail: s.detail.slice(0, 1000) } : {}) }))
      .catch((err: Error) => this.d.log.warn(`connection ${entry.ref.connectionId}: status not reported: ${err.message}`));
    this.reports.set(entry.key, next);
    void next.finally(() => {
      if (this.reports.get(entry.key) === next) this.reports.delete(entry.key);
    });
    if (!session.running && entry.session === session && this.entries.get(entry.key) === entry) void this.drop(entry, { unwant: true });
  }

  private async drop(entry: Entry, o: { unwant: boolean; quiet?: boolean }): Promise<void> {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.lastHealth.set(entry.key, entry.session.snapshot());
    if (this.lastHealth.size > 1000) this.lastHealth.delete(this.lastHealth.keys().next().value as string);
    entry.session.stop(false);
    entry.router.stop();
    entry.pacer.close();
    if (o.unwant) await this.d.locks.unwant(entry.ref).catch(() => undefined);
    await entry.lock.release();
    if (!o.quiet) this.d.log.info(`connection ${entry.ref.connectionId}: session released on ${this.d.nodeId}`);
  }
}
