/**
 * Plugins installed from the marketplace. The platform level (super) installs a published
 * version: the archive is fetched from the marketplace service, checked again (checksum,
 * paths, manifest, core API range), unpacked under DATA_DIR/plugins/<id>/<version>/ and run
 * by a plugin node of its own (core/src/bin/plugin-node.ts --folder …): third-party code never
 * runs in the core's process. One version of a plugin runs at a time; the one it replaced is
 * kept on disk for a rollback. Uninstalling is refused while connections use the plugin.
 *
 * A switch (install, upgrade, rollback) stops the running node first, starts the new one and
 * waits for its service; when it does not come up, the old version is started again and the
 * install answers ERR_PLUGIN_INSTALL_FAILED with the node's last words. While the switch
 * runs, the plugin's connections wait like for any plugin that is away (the outbox keeps
 * their sends) and resume once the new version's service is there.
 *
 * A plugin that ships migrations gets a database of its own (./data.ts): the host creates it
 * and gives the node its address only (PLUGIN_DATABASE_URL); the node runs the migrations of
 * the version it starts before its service starts. A rollback keeps the tables: the newer
 * version's migrations stay applied and recorded, the older code simply does not use them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ServiceBroker } from "moleculer";
import type Redis from "ioredis";
import type { Sequelize } from "sequelize";
import * as semver from "semver";
import { PluginManifest, channelTypeOf, ensurePluginDatabase, pluginServiceName } from "@openatende/plugin-sdk";
import type { AppConfig } from "@openatende/config";
import { AppError } from "../errors/app-error";
import { inspectPluginFolder } from "./discovery";
import { PluginNodeSupervisor, transporterForPluginNodes } from "./external";
import type { LoadedPlugin, PluginRegistry } from "./registry";
import { definePluginInstall, PluginInstall } from "./model";
import { ensurePluginDatabaseUser, pluginDatabaseOf } from "./data";
import { dropPluginRedisUser, ensurePluginRedisUser } from "./redis-access";
import { InstallHost } from "./install-host";
import { PLUGIN_ID, VERSION_DIR, fetchArchive, installedNodeEnv, lastWords, parseVersions, shipsMigrations, sleep, sortVersions, unpack } from "./install-files";
import { call } from "../bus/call";
import type { InstalledView } from "./contract";

export interface InstallsOptions {
  config: AppConfig;
  sequelize: Sequelize;
  broker: ServiceBroker;
  log: { info(m: string): void; warn(m: string): void };
  /** The plugin host's registry (replaced at its start). */
  registry(): PluginRegistry;
  /** True for a plugin folder shipped in the repo's plugins/. */
  isBundledFolder(folder: string): boolean;
  /** How long a switched-to version may take to show its service (default 60 s). */
  startTimeoutMs?: number;
  /** Redis, for the lock that makes one plugin host of the deployment run the installed plugins' nodes. */
  redis(): Redis;
  /** The core's Redis prefix: the installed plugins' nodes keep their keys under it (their context's redisPrefix). */
  redisPrefix?(): string;
  /** How long the host lock lives without renewal (ms, default 15 s; renewed every third of it). */
  hostLockMs?: number;
}

export class PluginInstalls {
  private readonly model: typeof PluginInstall;
  private supervisor: PluginNodeSupervisor | undefined;
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly root: string;
  /** The host lock: the node holding it runs (supervises) the installed plugins' nodes. */
  private readonly host: InstallHost;

  constructor(private readonly o: InstallsOptions) {
    this.model = definePluginInstall(o.sequelize);
    this.root = path.join(o.config.dataDir, "plugins");
    this.host = new InstallHost({
      config: o.config,
      nodeID: o.broker.nodeID,
      redis: o.redis,
      log: o.log,
      lockMs: o.hostLockMs,
      onGained: () => this.startNodes(),
      onLost: async () => {
        const sup = this.supervisor;
        this.supervisor = undefined;
        await sup?.stop();
      },
    });
  }

  /** Whether this node runs the installed plugins' nodes now. */
  get isHost(): boolean {
    return this.host.isHost;
  }

  /** The node that runs the installed plugins' nodes (null when none holds the lock). */
  hostNode(): Promise<string | null> {
    return this.host.hostNode();
  }

  /** Installs can run here: switched on, and a transporter the plugin nodes can join. */
  get enabled(): boolean {
    return this.o.config.pluginInstalls && !!this.o.broker.transit;
  }

  folderOf(id: string, version: string): string {
    return path.join(this.root, id, version);
  }

  private key(id: string) {
    return `installed:${id}`;
  }

  private ensureSupervisor(): PluginNodeSupervisor {
    if (!this.supervisor) {
      this.supervisor = new PluginNodeSupervisor({
        config: this.o.config,
        transporter: transporterForPluginNodes(this.o.config, this.o.broker),
        installationPrefix: this.o.redisPrefix?.(),
        log: (m) => this.o.log.info(m),
      });
    }
    return this.supervisor;
  }

  /** One switch at a time per plugin. */
  private serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(id) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(fn);
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    void tail.then(() => {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    });
    return run;
  }

  /**
   * At the plugin host's start: every installed plugin joins the registry (as running in a
   * node of its own; a folder that fails its checks is listed as refused with the reason). One
   * plugin host of the deployment runs their nodes: the one holding the host lock
   * (./install-host.ts). The others only list the plugins (their registries follow installs
   * through `plugins.installs.changed`, see resync) and hand install, rollback and uninstall
   * over to it.
   */
  async start(): Promise<void> {
    if (!this.enabled) return;
    const rows = await this.model.findAll({ order: [["pluginId", "ASC"]] });
    for (const row of rows) this.listFolder(row.get("pluginId") as string, row.get("version") as string);
    await this.host.start();
  }

  /** Lists an installed version in the registry (not started here); false when its folder is refused. */
  private listFolder(id: string, version: string): boolean {
    const registry = this.o.registry();
    const folder = this.folderOf(id, version);
    const found = inspectPluginFolder(folder);
    const conflict = found.ok ? registry.conflictOf(found.manifest) : null;
    if (!found.ok || conflict) {
      const reason = found.ok ? conflict! : found.reason;
      registry.addRefused({ id, folder, reason, manifest: found.manifest });
      this.o.log.warn(`Installed plugin refused: ${id} (${folder}): ${reason}`);
      return false;
    }
    registry.addLoaded(folder, found.manifest, semver.major(found.manifest.version), { installed: true });
    return true;
  }

  /** This node became the host: the installed plugins' nodes start here. */
  private async startNodes(): Promise<void> {
    const installed = this.o.registry().loaded().filter((p) => p.installed);
    for (const p of installed) {
      await this.ensureDatabase(p.id, p.folder).catch((err: Error) => this.o.log.warn(`Installed plugin ${p.id}: its database: ${err.message}`));
      this.ensureSupervisor().add(this.key(p.id), ["--folder", p.folder], installedNodeEnv(this.o.config, p.id, p.folder, this.o.redisPrefix?.()));
      this.o.log.info(`Installed plugin ${p.id} ${p.version}: starting its plugin node`);
    }
  }

  /**
   * Another plugin host installed, upgraded, rolled back or removed a plugin: this registry
   * lists what the database says now (the files are in the shared DATA_DIR).
   */
  async resync(id: string): Promise<void> {
    if (!this.o.config.pluginInstalls) return;
    const registry = this.o.registry();
    if (registry.versionsOf(id).some((p) => !p.installed)) return;
    const row = await this.row(id);
    registry.remove(id);
    if (row) this.listFolder(id, row.get("version") as string);
  }

  async stop(): Promise<void> {
    this.host.stopRenewing();
    // The nodes stop before the lock is given up: the next host never runs them beside these.
    await this.supervisor?.stop();
    await this.host.release();
  }

  private async row(id: string) {
    return this.model.findOne({ where: { pluginId: id } });
  }

  private assertEnabled() {
    if (!this.enabled) throw new AppError("ERR_PLUGIN_INSTALLS_DISABLED");
  }

  /** A plugin shipped with the platform owns its id: the marketplace cannot replace it. */
  private assertNotBundled(id: string) {
    const reg = this.o.registry();
    const mine = reg.versionsOf(id).some((p) => this.o.isBundledFolder(p.folder)) || reg.records().some((r) => r.id === id && this.o.isBundledFolder(r.folder));
    if (mine) throw new AppError("ERR_PLUGIN_BUNDLED", { id });
  }

  /** Connections of every tenant made with the plugin (a connection's type is the plugin id; older rows may hold the channel type). */
  private async connectionsOf(manifest: PluginManifest | null | undefined): Promise<number> {
    if (!manifest || manifest.kind !== "channel") return 0;
    return call(this.o.broker, "connections.countByType", { types: [manifest.id, channelTypeOf(manifest)] });
  }

  async view(row: PluginInstall): Promise<InstalledView> {
    const id = row.get("pluginId") as string;
    const p = this.o.registry().get(id);
    const manifest = p?.manifest ?? this.o.registry().manifestOf(id);
    return {
      id,
      version: row.get("version") as string,
      previousVersion: (row.get("previousVersion") as string | null) ?? null,
      versions: sortVersions(parseVersions(row.get("versions") as string)),
      kind: manifest?.kind ?? null,
      tier: manifest?.tier ?? null,
      displayName: (manifest?.displayName as Record<string, string> | undefined) ?? null,
      running: !!p && this.o.broker.registry.hasService(p.service, undefined as unknown as string),
      connections: await this.connectionsOf(manifest),
    };
  }

  async list(): Promise<InstalledView[]> {
    const rows = await this.model.findAll({ order: [["pluginId", "ASC"]] });
    return Promise.all(rows.map((r) => this.view(r)));
  }

  /** Installs (or upgrades to, or goes back to) a version published in the marketplace. */
  install(id: string, version: string, by: number | null): Promise<InstalledView> {
    this.assertEnabled();
    if (!PLUGIN_ID.test(id)) throw new AppError("ERR_VALIDATION", { field: "id", rule: "pattern" });
    if (!VERSION_DIR.test(version) || !semver.valid(version)) throw new AppError("ERR_VALIDATION", { field: "version", rule: "semver" });
    this.assertNotBundled(id);
    return this.serial(id, async () => {
      const row = await this.row(id);
      const current = row?.get("version") as string | undefined;
      if (current === version && this.running(id, version)) throw new AppError("ERR_PLUGIN_ALREADY_INSTALLED", { id, version });

      const { manifest, files, checksum } = await fetchArchive(this.o.broker, this.o.config.marketplaceMaxArchiveBytes, id, version);
      const folder = this.folderOf(id, version);
      await unpack(files, folder, checksum);

      await this.activate(id, folder, manifest);
      const versions = sortVersions([...parseVersions(row?.get("versions") as string | undefined), version]);
      const previousVersion = current && current !== version ? current : ((row?.get("previousVersion") as string | null | undefined) ?? null);
      if (row) await row.update({ version, previousVersion, versions: JSON.stringify(versions), installedBy: by });
      else await this.model.create({ pluginId: id, version, previousVersion: null, versions: JSON.stringify(versions), installedBy: by });
      this.o.log.info(`Plugin ${id} ${version} installed${current && current !== version ? ` (was ${current})` : ""}`);
      return this.view((await this.row(id))!);
    });
  }

  /** Goes back to the version the current one replaced. */
  rollback(id: string, by: number | null): Promise<InstalledView> {
    this.assertEnabled();
    return this.serial(id, async () => {
      const row = await this.row(id);
      if (!row) throw new AppError("ERR_PLUGIN_NOT_INSTALLED", { id });
      const current = row.get("version") as string;
      const previous = row.get("previousVersion") as string | null;
      const folder = previous ? this.folderOf(id, previous) : null;
      if (!previous || !folder || !fs.existsSync(path.join(folder, "package.json"))) throw new AppError("ERR_PLUGIN_ROLLBACK_UNAVAILABLE", { id });
      const found = inspectPluginFolder(folder);
      if (!found.ok) throw new AppError("ERR_PLUGIN_INSTALL_FAILED", { id, version: previous, reason: found.reason });
      await this.activate(id, folder, found.manifest);
      await row.update({ version: previous, previousVersion: current, installedBy: by });
      this.o.log.info(`Plugin ${id} rolled back from ${current} to ${previous}`);
      return this.view((await this.row(id))!);
    });
  }

  /** Removes an installed plugin: its node, its files and the tenants' settings of it. */
  uninstall(id: string): Promise<{ id: string; uninstalled: true }> {
    return this.serial(id, async () => {
      const row = await this.row(id);
      if (!row) throw new AppError("ERR_PLUGIN_NOT_INSTALLED", { id });
      const manifest = this.o.registry().get(id)?.manifest ?? this.o.registry().manifestOf(id);
      const connections = await this.connectionsOf(manifest);
      if (connections > 0) throw new AppError("ERR_PLUGIN_IN_USE", { id, connections });
      await this.supervisor?.remove(this.key(id));
      this.o.registry().remove(id);
      await this.o.sequelize.transaction(async (transaction) => {
        await row.destroy({ transaction });
        await this.o.sequelize.query("DELETE FROM tenant_plugins WHERE pluginId = ?", { replacements: [id], transaction });
      });
      fs.rmSync(path.join(this.root, id), { recursive: true, force: true });
      const prefix = this.o.redisPrefix?.();
      if (prefix) await dropPluginRedisUser(this.o.config, this.o.redis(), prefix, id).catch((err: Error) => this.o.log.warn(`Plugin ${id}: its Redis user: ${err.message}`));
      this.o.log.info(`Plugin ${id} uninstalled`);
      return { id, uninstalled: true as const };
    });
  }

  /** The plugin's version `version` is on the broker now (its node answered with its service). */
  private running(id: string, version: string): boolean {
    const p = this.o.registry().get(id);
    return !!p && p.version === version && this.o.broker.registry.hasService(p.service, undefined as unknown as string);
  }

  /**
   * Makes `folder` the running version of `id`: the old node stops, the registry entry is
   * swapped, the new node starts and its service must show. On failure the old version
   * (when there was one) is put back and ERR_PLUGIN_INSTALL_FAILED thrown.
   */
  private async activate(id: string, folder: string, manifest: PluginManifest): Promise<void> {
    const registry = this.o.registry();
    const found = inspectPluginFolder(folder);
    if (!found.ok) throw new AppError("ERR_ARCHIVE_MANIFEST_INVALID", { id, errors: [found.reason] });
    const old: LoadedPlugin[] = registry.versionsOf(id);
    const supervisor = this.ensureSupervisor();
    const key = this.key(id);
    await supervisor.remove(key);
    await this.waitGone(old.map((p) => p.service));
    registry.remove(id);
    const conflict = registry.conflictOf(manifest);
    if (conflict) {
      this.restore(old);
      throw new AppError("ERR_PLUGIN_INSTALL_FAILED", { id, version: manifest.version, reason: conflict });
    }
    const major = semver.major(manifest.version);
    registry.addLoaded(folder, manifest, major, { installed: true });
    try {
      await this.ensureDatabase(id, folder);
    } catch (err) {
      registry.remove(id);
      this.restore(old);
      throw new AppError("ERR_PLUGIN_INSTALL_FAILED", { id, version: manifest.version, reason: `its database: ${(err as Error).message}` });
    }
    supervisor.add(key, ["--folder", folder], installedNodeEnv(this.o.config, id, folder, this.o.redisPrefix?.()));
    const failure = await this.waitStarted(key, pluginServiceName(id, major));
    if (failure) {
      await supervisor.remove(key);
      registry.remove(id);
      this.restore(old);
      throw new AppError("ERR_PLUGIN_INSTALL_FAILED", { id, version: manifest.version, reason: failure });
    }
    // One version runs at a time: connections pinned to another major follow the new one.
    const oldMajor = old[0]?.major;
    if (manifest.kind === "channel" && oldMajor !== undefined && oldMajor !== major) {
      await call(this.o.broker, "connections.repinMajor", { types: [manifest.id, channelTypeOf(manifest)], major });
    }
  }

  private restore(old: LoadedPlugin[]) {
    if (!old.length) return;
    const registry = this.o.registry();
    for (const p of old) registry.addLoaded(p.folder, p.manifest, p.major, { installed: true });
    this.ensureSupervisor().add(this.key(old[0].id), ["--folder", old[0].folder], installedNodeEnv(this.o.config, old[0].id, old[0].folder, this.o.redisPrefix?.()));
  }

  /**
   * What the plugin's node may reach, made before it starts: its Redis user (its keys only), and
   * for a plugin with migrations/ its own database and MariaDB user; its node runs the migrations.
   */
  private async ensureDatabase(id: string, folder: string): Promise<void> {
    const prefix = this.o.redisPrefix?.();
    if (prefix) await ensurePluginRedisUser(this.o.config, this.o.redis(), prefix, id);
    if (!shipsMigrations(folder)) return;
    await ensurePluginDatabase(pluginDatabaseOf(this.o.config, id));
    await ensurePluginDatabaseUser(this.o.config, id);
  }

  private async waitGone(services: string[], timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (services.some((s) => this.o.broker.registry.hasService(s, undefined as unknown as string)) && Date.now() < until) await sleep(50);
  }

  /** Null once the service runs on the node under `key`; the reason it did not otherwise. */
  private async waitStarted(key: string, service: string): Promise<string | null> {
    const until = Date.now() + (this.o.startTimeoutMs ?? 60_000);
    for (;;) {
      const st = this.supervisor?.state(key);
      if (!st) return "the plugin node was stopped";
      if (st.exits > 0) return lastWords(st.tail) || "the plugin node exited";
      if (this.o.broker.registry.hasService(service, undefined as unknown as string)) return null;
      if (Date.now() > until) return `its service ${service} did not start within ${Math.round((this.o.startTimeoutMs ?? 60_000) / 1000)} s`;
      await sleep(100);
    }
  }
}
