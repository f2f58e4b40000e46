/**
 * Loading plugins into a running broker. Each plugin folder is inspected (manifest, core API
 * range, entry), its entry required (TypeScript is fine: the runtime is tsx or swc), the
 * export checked for the definePlugin() tag, its own data prepared (database made and
 * migrations run, see ./data.ts) and its service created and started. Any failure refuses that
 * plugin with a reason and the next one is tried: a broken plugin never stops the core.
 */
import type { Service, ServiceBroker } from "moleculer";
import * as semver from "semver";
import { DefinedPlugin, findDefinedPlugin, PLUGIN_TAG, PluginContext, withPluginContext } from "@openatende/plugin-sdk";
import { inspectPluginFolder, listPluginFolders } from "./discovery";
import { PluginRegistry } from "./registry";
import type { PluginDataPreparer } from "./data";

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

export async function loadPlugins(broker: ServiceBroker, opts: LoadOptions): Promise<PluginRegistry> {
  const registry = new PluginRegistry();
  const refuse = (id: string, folder: string, reason: string, manifest?: Parameters<PluginRegistry["addRefused"]>[0]["manifest"]) => {
    registry.addRefused({ id, folder, reason, manifest });
    opts.onRefused?.({ id, folder, reason });
  };

  for (const folder of [...listPluginFolders(opts.dirs), ...(opts.folders ?? [])]) {
    const found = inspectPluginFolder(folder);
    if (opts.only && !opts.only.includes(found.ok ? found.manifest.id : found.id)) continue;
    if (!found.ok) {
      refuse(found.id, folder, found.reason, found.manifest);
      continue;
    }
    const { manifest } = found;
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
    let plugin: DefinedPlugin;
    try {
      plugin = requirePlugin(found.entry);
    } catch (err) {
      refuse(manifest.id, folder, `entry failed to load: ${messageOf(err)}`, manifest);
      continue;
    }
    if (plugin.id !== manifest.id || plugin.version !== manifest.version) {
      refuse(manifest.id, folder, `the entry defines ${plugin.id}@${plugin.version} but package.json declares ${manifest.id}@${manifest.version}`, manifest);
      continue;
    }
    let context = opts.context;
    if (opts.data) {
      try {
        const prepared = await opts.data({ id: manifest.id, folder });
        if (prepared.database && context) context = { ...context, database: prepared.database };
      } catch (err) {
        refuse(manifest.id, folder, `its own data could not be prepared: ${messageOf(err)}`, manifest);
        continue;
      }
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
