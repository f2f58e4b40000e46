/**
 * definePlugin(): turns a plugin's manifest and Moleculer service schema into the tagged,
 * versioned object the core's plugin host loads. The host refuses anything without the tag
 * (a plain schema, an object built by an incompatible SDK), so the contract can evolve: a
 * breaking change of this object is a new PLUGIN_TAG value.
 *
 *   // plugins/channel-telegram/src/service.ts
 *   import pkg from "../package.json";
 *   export const telegramChannelPlugin = definePlugin({ pkgJson: pkg, service: { actions: {…} } });
 *   export default telegramChannelPlugin;
 */
import * as semver from "semver";
import type { ServiceSchema } from "moleculer";
import { PluginManifest, toPackageJson, validateManifest } from "./manifest";

/** Version of the tagged object's shape; the host only loads objects whose tag it knows. */
export const PLUGIN_TAG = 1 as const;

/** A plugin's service schema: name and version are not the author's to choose, they come from the manifest. */
export type PluginServiceSchema<S = Record<string, unknown>> = Omit<ServiceSchema<S>, "name" | "version"> & { name?: string; version?: number };

export type DefinePluginInput<S = Record<string, unknown>> =
  | { pkgJson: unknown; manifest?: undefined; service: PluginServiceSchema<S> }
  | { manifest: PluginManifest; pkgJson?: undefined; service: PluginServiceSchema<S> };

export interface DefinedPlugin {
  readonly $$openatendePlugin: typeof PLUGIN_TAG;
  /** Manifest id, also the Moleculer service name. */
  readonly id: string;
  /** Full semver version of the plugin package. */
  readonly version: string;
  /** Major version: the Moleculer service `version`, so the service is "v<major>.<id>". */
  readonly major: number;
  readonly manifest: PluginManifest;
  /** The schema to give broker.createService(): name, version and plugin metadata filled in. */
  readonly schema: ServiceSchema;
}

export class PluginDefinitionError extends Error {
  constructor(
    message: string,
    readonly errors: string[],
  ) {
    super(`${message}:\n  - ${errors.join("\n  - ")}`);
    this.name = "PluginDefinitionError";
  }
}

/** "v<major>.<id>": the full name of a plugin's Moleculer service, as used in `ctx.call("v1.channel-webchat.send", …)`. */
export function pluginServiceName(id: string, major: number): string {
  return `v${major}.${id}`;
}

export function definePlugin<S = Record<string, unknown>>(input: DefinePluginInput<S>): DefinedPlugin {
  const checked = validateManifest(input.manifest ? toPackageJson(input.manifest) : input.pkgJson);
  if (!checked.ok) throw new PluginDefinitionError("Invalid plugin manifest", checked.errors);
  const manifest = checked.manifest;
  const service = input.service as PluginServiceSchema;
  if (!service || typeof service !== "object") throw new PluginDefinitionError(`Plugin ${manifest.id}`, ["service must be a Moleculer service schema object"]);

  const major = semver.major(manifest.version);
  const errors: string[] = [];
  if (service.name !== undefined && service.name !== manifest.id) errors.push(`service.name ${JSON.stringify(service.name)} must be the manifest id ${JSON.stringify(manifest.id)} (or left out)`);
  if (service.version !== undefined && service.version !== major) errors.push(`service.version ${JSON.stringify(service.version)} must be the major of ${manifest.version} (${major}) (or left out)`);
  if (errors.length) throw new PluginDefinitionError(`Plugin ${manifest.id}`, errors);

  const schema = {
    ...service,
    name: manifest.id,
    version: major,
    metadata: {
      ...(service.metadata ?? {}),
      plugin: { id: manifest.id, version: manifest.version, kind: manifest.kind, coreApi: manifest.coreApi },
    },
  } as ServiceSchema;

  return Object.freeze({ $$openatendePlugin: PLUGIN_TAG, id: manifest.id, version: manifest.version, major, manifest, schema });
}

/** True for an object made by definePlugin() of a compatible SDK. */
export function isDefinedPlugin(x: unknown): x is DefinedPlugin {
  if (typeof x !== "object" || x === null) return false;
  const p = x as Partial<DefinedPlugin>;
  return (
    p.$$openatendePlugin === PLUGIN_TAG &&
    typeof p.id === "string" &&
    typeof p.version === "string" &&
    typeof p.major === "number" &&
    typeof p.manifest === "object" &&
    p.manifest !== null &&
    typeof p.schema === "object" &&
    p.schema !== null
  );
}

/**
 * Finds the definePlugin() object a plugin module exports: its default export, a named
 * export, or the module itself (CommonJS `module.exports = definePlugin(…)`).
 */
export function findDefinedPlugin(mod: unknown): DefinedPlugin | undefined {
  if (isDefinedPlugin(mod)) return mod;
  if (typeof mod !== "object" || mod === null) return undefined;
  const m = mod as Record<string, unknown>;
  if (isDefinedPlugin(m.default)) return m.default;
  const found = Object.values(m).filter(isDefinedPlugin);
  return found.length === 1 ? found[0] : undefined;
}
