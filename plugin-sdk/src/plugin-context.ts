/**
 * What a plugin knows of the platform it runs in, without importing the core's configuration:
 * the Redis it may keep state in, the prefix of its keys there (redisPrefix), the data folder, the
 * product's public URL, the address of its own database. Whoever starts the plugin's service
 * puts it in the service's settings under PLUGIN_CONTEXT_SETTING: the core's plugin host for a
 * plugin in the core's process, the plugin node (core/src/bin/plugin-node.ts) for a plugin in a
 * process of its own. The setting is listed in `$secureSettings`, so it never leaves the
 * process in the node's INFO packet (the Redis and database URLs may carry a password).
 *
 *   created() {
 *     const { redisUrl, redisPrefix } = pluginContext(this);
 *     // every key: `${redisPrefix}:<plugin id>:…`
 *   }
 *
 * How to extend: add optional fields only (a plugin built for an older SDK ignores them).
 */
import type { ServiceSchema } from "moleculer";
import type { PluginDatabaseAddress } from "./data/contract";

export interface PluginContext {
  /**
   * Moleculer namespace of the deployment. Not a Redis prefix any more (see redisPrefix): kept
   * for plugins built before it, and to find keys such a plugin left (`<namespace>:<plugin id>:…`).
   */
  namespace: string;
  /**
   * The one prefix every Redis key of the plugin starts with: `<namespace>:<installation id>`
   * (no trailing colon; a plugin's keys are `${redisPrefix}:<plugin id>:…`). NAMESPACE alone is
   * not enough: two installations with different databases may share one Redis and one
   * NAMESPACE, and their tenant and connection ids would meet. The host fills it; a context
   * from a host older than this field gets `namespace` (pluginContext, withPluginContext).
   */
  redisPrefix: string;
  /** Redis the plugin may keep its state in (redis://…). */
  redisUrl: string;
  /** The platform's data folder as this process sees it (absolute). */
  dataDir: string;
  /** The product's external base URL, no trailing slash; the API is under `<publicUrl>/api`. */
  publicUrl: string;
  /**
   * True when the core's stored files (an outbound MediaRef's `path`) can be read under
   * `dataDir` from this process. False in a plugin node: `readMedia` then fetches them from
   * the core over the transporter.
   */
  localFiles: boolean;
  /** True when the plugin runs in a broker node of its own rather than in the core's process. */
  external: boolean;
  /**
   * The plugin's own database (see openPluginData), after the host ran its migrations; only
   * for plugins that ship a migrations/ folder. It may carry a password: like the whole
   * context it never leaves the plugin's process.
   */
  database?: PluginDatabaseAddress;
  /**
   * The platform's outbound allow-list (OUTBOUND_URL_ALLOWLIST): hosts, IPs and CIDRs a
   * tenant's URL may reach although not public. Give it to the URL policy as `allow`
   * (checkOutboundUrl, safeFetch); absent from older hosts, which means none.
   */
  outboundAllow?: string[];
}

/** The service setting that carries the context. */
export const PLUGIN_CONTEXT_SETTING = "$platform";

const CONTEXT_FIELDS: Array<keyof PluginContext> = ["namespace", "redisUrl", "dataDir", "publicUrl", "localFiles", "external"];

/** What a host hands withPluginContext: redisPrefix may be left out (then it is `namespace`, the keys of hosts before it). */
export type PluginContextInput = Omit<PluginContext, "redisPrefix"> & { redisPrefix?: string };

function withRedisPrefix(ctx: PluginContextInput): PluginContext {
  return { ...ctx, redisPrefix: ctx.redisPrefix || ctx.namespace };
}

/** A plugin's service schema with the context in its settings (what hosts and plugin nodes create). */
export function withPluginContext<S extends ServiceSchema>(schema: S, context: PluginContextInput): S {
  const settings = { ...((schema.settings as Record<string, unknown> | undefined) ?? {}) };
  const secure = Array.isArray(settings.$secureSettings) ? (settings.$secureSettings as string[]) : [];
  return {
    ...schema,
    settings: { ...settings, [PLUGIN_CONTEXT_SETTING]: withRedisPrefix(context), $secureSettings: [...new Set([...secure, PLUGIN_CONTEXT_SETTING])] },
  };
}

export class PluginContextMissingError extends Error {
  constructor(service: string) {
    super(`${service}: the platform context is missing from the service settings (${PLUGIN_CONTEXT_SETTING}); start the plugin through the plugin host or a plugin node, or give it withPluginContext()`);
    this.name = "PluginContextMissingError";
  }
}

/** The context of a plugin's service (`this` in created/started/actions); throws when none was given. */
export function pluginContext(service: { settings?: unknown; fullName?: string; name?: string }): PluginContext {
  const ctx = (service.settings as Record<string, unknown> | undefined)?.[PLUGIN_CONTEXT_SETTING] as Partial<PluginContext> | undefined;
  const missing = !ctx || CONTEXT_FIELDS.some((f) => ctx[f] === undefined);
  if (missing) throw new PluginContextMissingError(service.fullName ?? service.name ?? "plugin");
  return withRedisPrefix(ctx as PluginContextInput);
}
