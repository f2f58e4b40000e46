/**
 * Loading plugins into a running broker. Each plugin folder is inspected (manifest, core API
 * range, entry), its entry required (TypeScript is fine: the runtime is tsx or swc), the
 * export checked for the definePlugin() tag, its own data prepared (database made and
 * migrations run, see ./data.ts) and its service created and started. Any failure refuses that
 * plugin with a reason and the next one is tried: a broken plugin never stops the core.
 */
import type { Service, ServiceBroker } from "moleculer";
import * as semver from "semver";
import { channelTypeOf, DefinedPlugin, findDefinedPlugin, PLUGIN_TAG, PluginContext, withPluginContext } from "@openatende/plugin-sdk";
import { inspectPluginFolder, listPluginFolders } from "./discovery";
import { PluginRegistry } from "./registry";
import type { PluginDataPrep, PluginDataPreparer } from "./data";

export interface LoadOptions {
  /** Folders whose subfolders are plugins (the repo's plugins/ plus extra ones). */
  dirs: string[];
  /** Plugin folders of their own, looked at after `dirs` (a plugin installed from the marketplace). */
  folders?: string[];
  /** How long a plugin service may take to start (default 15 s). */
  startTimeoutMs?: number;
  /**
   * Plugins that run in broker nodes of their own (PLUGINS_EXTERNAL): validated and listed
   * like the others, but neither required nor started here.
   */
  external?: string[];
  /** Only these plugin ids are looked at (a plugin node); the other folders are skipped. */
  only?: string[];
  /** The platform context every started plugin service gets in its settings (SDK pluginContext). */
  context?: PluginContext;
  /**
   * Makes each plugin's own database and runs its migrations before its service starts; the
   * address goes into that plugin's context. Without it plugins get no database.
   */
  data?: PluginDataPreparer;
  onLoaded?(p: { id: string; version: string; service: string; folder: string; external?: boolean }): void;
  onRefused?(p: { id: string; folder: string; reason: string }): void;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Requires a plugin entry and finds its definePlugin() object. */
function requirePlugin(entry: string): DefinedPlugin {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod: unknown = require(entry);
  const plugin = findDefinedPlugin(mod);
  if (!plugin) throw new Error(`the entry does not export a definePlugin() object (tag $$openatendePlugin: ${PLUGIN_TAG})`);
  return plugin;
}

/**
 * Creates and starts one plugin service outside broker.createService's fire-and-forget
 * start, so a failing `started` is seen here and the service removed again.
 */
async function startService(broker: ServiceBroker, plugin: DefinedPlugin, timeoutMs: number, context?: PluginContext): Promise<Service> {
  let svc: Service;
  try {
    svc = new broker.ServiceFactory(broker, context ? withPluginContext(plugin.schema, context) : { ...plugin.schema });
  } catch (err) {
    throw new Error(`its service failed to create: ${messageOf(err)}`);
  }
  try {
    await withTimeout(svc._start(), timeoutMs, "its service start");
  } catch (err) {
    await broker.destroyService(svc).catch(() => undefined);
    throw new Error(`its service failed to start: ${messageOf(err)}`);
  }
  return svc;
}

/** How many plugins ahead of the one being started have their data prepared (see loadPlugins). */
export const DATA_LOOKAHEAD = 4;

type Found = ReturnType<typeof inspectPluginFolder>;
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

/**
 * Loads the plugins in folder order: each one's service starts after the one before it has
 * started or been refused, as it always did. What overlaps is the slow part that touches no
 * other plugin: a plugin's own data (its database made, its migrations checked or run) is
 * prepared while the plugins before it start, up to DATA_LOOKAHEAD plugins ahead. Only a plugin
 * that nothing else could be chosen over gets this: its entry loaded and checked, no other
 * folder with the same id or channel type (which of two such plugins loads depends on how the
 * first one fares, so those are prepared at their turn, as before).
 */
export async function loadPlugins(broker: ServiceBroker, opts: LoadOptions): Promise<PluginRegistry> {
  const registry = new PluginRegistry();
  const refuse = (id: string, folder: string, reason: string, manifest?: Parameters<PluginRegistry["addRefused"]>[0]["manifest"]) => {
    registry.addRefused({ id, folder, reason, manifest });
    opts.onRefused?.({ id, folder, reason });
  };

  const found: Found[] = [...listPluginFolders(opts.dirs), ...(opts.folders ?? [])]
    .map((folder) => inspectPluginFolder(folder))
    .filter((f) => !opts.only || opts.only.includes(f.ok ? f.manifest.id : f.id));
  // Ids and channel types that more than one folder declares.
  const seen = new Map<string, number>();
  const keysOf = (f: Found): string[] => (f.ok ? [`id:${f.manifest.id}`, ...(f.manifest.kind === "channel" ? [`channel:${channelTypeOf(f.manifest)}`] : [])] : []);
  for (const f of found) for (const k of keysOf(f)) seen.set(k, (seen.get(k) ?? 0) + 1);
  const contended = (f: Found) => keysOf(f).some((k) => (seen.get(k) ?? 0) > 1);

  // Per index: the entry loaded (or why not), and the data prepared ahead of its turn.
  const required = new Map<number, Settled<DefinedPlugin>>();
  const prepared = new Map<number, Promise<Settled<PluginDataPrep>>>();
  const requireAt = (i: number): Settled<DefinedPlugin> => {
    let r = required.get(i);
    if (!r) {
      const f = found[i] as Extract<Found, { ok: true }>;
      try {
        r = { ok: true, value: requirePlugin(f.entry) };
      } catch (error) {
        r = { ok: false, error };
      }
      required.set(i, r);
    }
    return r;
  };
  // Started on a later turn of the event loop, so a preparer that throws at once is a refusal too.
  const prepare = (id: string, folder: string) => settle(Promise.resolve().then(() => opts.data!({ id, folder })));
  const prepareAhead = (i: number) => {
    const f = found[i];
    if (!opts.data || !f?.ok || prepared.has(i) || opts.external?.includes(f.manifest.id) || contended(f)) return;
    const r = requireAt(i);
    if (!r.ok || r.value.id !== f.manifest.id || r.value.version !== f.manifest.version) return;
    prepared.set(i, prepare(f.manifest.id, f.folder));
  };

  for (let i = 0; i < found.length; i++) {
    for (let j = i; j <= i + DATA_LOOKAHEAD && j < found.length; j++) prepareAhead(j);
    const f = found[i]!;
    const folder = f.folder;
    if (!f.ok) {
      refuse(f.id, folder, f.reason, f.manifest);
      continue;
    }
    const { manifest } = f;
    const conflict = registry.conflictOf(manifest);
    if (conflict) {
      refuse(manifest.id, folder, conflict, manifest);
      continue;
    }
    if (opts.external?.includes(manifest.id)) {
      const listed = registry.addLoaded(folder, manifest, semver.major(manifest.version), { external: true });
      opts.onLoaded?.({ id: listed.id, version: listed.version, service: listed.service, folder, external: true });
      continue;
    }
    const entry = requireAt(i);
    if (!entry.ok) {
      refuse(manifest.id, folder, `entry failed to load: ${messageOf(entry.error)}`, manifest);
      continue;
    }
    const plugin = entry.value;
    if (plugin.id !== manifest.id || plugin.version !== manifest.version) {
      refuse(manifest.id, folder, `the entry defines ${plugin.id}@${plugin.version} but package.json declares ${manifest.id}@${manifest.version}`, manifest);
      continue;
    }
    let context = opts.context;
    if (opts.data) {
      const data = await (prepared.get(i) ?? prepare(manifest.id, folder));
      if (!data.ok) {
        refuse(manifest.id, folder, `its own data could not be prepared: ${messageOf(data.error)}`, manifest);
        continue;
      }
      if (data.value.database && context) context = { ...context, database: data.value.database };
    }
    try {
      await startService(broker, plugin, opts.startTimeoutMs ?? 15_000, context);
    } catch (err) {
      refuse(manifest.id, folder, messageOf(err), manifest);
      continue;
    }
    const loaded = registry.addLoaded(folder, manifest, plugin.major);
    opts.onLoaded?.({ id: loaded.id, version: loaded.version, service: loaded.service, folder });
  }
  return registry;
}
