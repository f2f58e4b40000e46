/**
 * What the plugin host knows: every plugin folder it looked at, loaded or refused (with the
 * reason), in discovery order. Loaded plugins are found by id and, for channels, by the
 * connection type they serve.
 */
import { PluginManifest, PluginRecord, channelTypeOf, pluginServiceName } from "@openatende/plugin-sdk";

export interface LoadedPlugin {
  id: string;
  folder: string;
  version: string;
  major: number;
  manifest: PluginManifest;
  /** "v<major>.<id>" */
  service: string;
  /** Channels only: the connection type served. */
  channelType?: string;
}

interface RefusedPlugin {
  id: string;
  folder: string;
  reason: string;
  manifest?: PluginManifest;
}

export class PluginRegistry {
  private readonly order: Array<{ kind: "loaded"; p: LoadedPlugin } | { kind: "refused"; p: RefusedPlugin }> = [];
  private readonly byId = new Map<string, LoadedPlugin>();
  private readonly byChannelType = new Map<string, LoadedPlugin>();

  /** Why `manifest` cannot join the loaded plugins (duplicate id or channel type), or null. */
  conflictOf(manifest: PluginManifest): string | null {
    const same = this.byId.get(manifest.id);
    if (same) return `duplicate id: ${manifest.id} ${same.version} is already loaded from ${same.folder}`;
    if (manifest.kind === "channel") {
      const type = channelTypeOf(manifest);
      const other = this.byChannelType.get(type);
      if (other) return `channel type "${type}" is already served by ${other.id}`;
    }
    return null;
  }

  addLoaded(folder: string, manifest: PluginManifest, major: number): LoadedPlugin {
    const p: LoadedPlugin = { id: manifest.id, folder, version: manifest.version, major, manifest, service: pluginServiceName(manifest.id, major) };
    if (manifest.kind === "channel") p.channelType = channelTypeOf(manifest);
    this.order.push({ kind: "loaded", p });
    this.byId.set(p.id, p);
    if (p.channelType) this.byChannelType.set(p.channelType, p);
    return p;
  }

  addRefused(p: RefusedPlugin): void {
    this.order.push({ kind: "refused", p });
  }

  loaded(): LoadedPlugin[] {
    return this.order.flatMap((e) => (e.kind === "loaded" ? [e.p] : []));
  }

  get(id: string): LoadedPlugin | undefined {
    return this.byId.get(id);
  }

  /** A loaded channel by connection type or by plugin id. */
  channel(typeOrId: string): LoadedPlugin | undefined {
    const p = this.byChannelType.get(typeOrId) ?? this.byId.get(typeOrId);
    return p?.manifest.kind === "channel" ? p : undefined;
  }

  /** A refused plugin by id or (when its manifest was readable) channel type. */
  refused(idOrType: string): RefusedPlugin | undefined {
    for (const e of this.order) {
      if (e.kind !== "refused") continue;
      if (e.p.id === idOrType) return e.p;
      if (e.p.manifest?.kind === "channel" && channelTypeOf(e.p.manifest) === idOrType) return e.p;
    }
    return undefined;
  }

  /** Manifest of a loaded or refused plugin. */
  manifestOf(id: string): PluginManifest | null {
    return this.byId.get(id)?.manifest ?? this.refused(id)?.manifest ?? null;
  }

  records(): PluginRecord[] {
    return this.order.map((e) => {
      const m = e.p.manifest;
      const base = { id: e.p.id, folder: e.p.folder, ...(m ? { version: m.version, kind: m.kind, tier: m.tier } : {}) };
      return e.kind === "loaded"
        ? { ...base, status: "loaded" as const, major: e.p.major, service: e.p.service }
        : { ...base, status: "refused" as const, reason: e.p.reason };
    });
  }
}
