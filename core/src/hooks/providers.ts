import type { ServiceBroker } from "moleculer";
import { pluginServiceName, type PluginHookName } from "@openatende/plugin-sdk";

type PluginMeta = { id?: string; hooks?: PluginHookName[] };

/**
 * The plugins on the bus that answer `hook` (definePlugin's `metadata.plugin.hooks`), each as the
 * service of its newest major that declares it: plugin id → service name.
 */
export function hookProviders(broker: ServiceBroker, hook: PluginHookName): Map<string, string> {
  const list = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true, withActions: false }) as Array<{ version?: string | number; metadata?: { plugin?: PluginMeta } }>;
  const best = new Map<string, number>();
  for (const s of list) {
    const p = s.metadata?.plugin;
    if (!p?.id || !p.hooks?.includes(hook) || s.version === undefined) continue;
    const major = Number(String(s.version).replace(/^v/, ""));
    if ((best.get(p.id) ?? -1) < major) best.set(p.id, major);
  }
  return new Map([...best].map(([id, major]) => [id, pluginServiceName(id, major)]));
}

/** A plugin's refusal (its PluginError, a 4xx): what the caller is told. Anything else is the plugin's trouble, not the caller's. */
export function isRefusal(err: unknown): boolean {
  const e = err as { code?: unknown; type?: unknown; name?: string };
  return typeof e?.code === "number" && e.code >= 400 && e.code < 500 && typeof e.type === "string" && e.name !== "ServiceNotFoundError" && e.name !== "RequestTimeoutError";
}
