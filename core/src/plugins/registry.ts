/**
 * What the plugin host knows: every plugin folder it looked at, loaded or refused (with the
 * reason), in discovery order. Loaded plugins are found by id and, for channels, by the
 * connection type they serve. One id may be loaded in several major versions side by side
 * (services "v1.<id>", "v2.<id>"): by id or type alone the newest major answers, and a
 * given major is asked for with `get(id, major)` / `channel(type, major)`.
 */
import { PluginManifest, PluginRecord, channelTypeOf, pluginServiceName } from "@openatende/plugin-sdk";
import { addPluginErrors, dropPluginErrors, pluginErrorsConflict } from "../errors/plugin-codes";

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
  /** Runs in a broker node of its own (PLUGINS_EXTERNAL): listed here, started there. */
  external?: boolean;
  /** Installed from the marketplace: external too, in a node the plugin host supervises. */
  installed?: boolean;
}

interface RefusedPlugin {
  id: string;
  folder: string;
  reason: string;
  manifest?: PluginManifest;
}

export class PluginRegistry {
  private readonly order: Array<{ kind: "loaded"; p: LoadedPlugin } | { kind: "refused"; p: RefusedPlugin }> = [];
  /** Newest loaded major of each id. */
  private readonly byId = new Map<string, LoadedPlugin>();
  private readonly byChannelType = new Map<string, LoadedPlugin>();
  /** Every loaded major of each id, newest first. */
  private readonly versions = new Map<string, LoadedPlugin[]>();

  /**
   * Why `manifest` cannot join the loaded plugins, or null: the same id in the same major
   * (another major of it runs side by side), another kind under a loaded id, or a channel
   * type already served by another id.
   */
  conflictOf(manifest: PluginManifest): string | null {
    const major = majorOf(manifest.version);
    const same = this.versions.get(manifest.id)?.find((p) => p.major === major);
    if (same) return `duplicate id: ${manifest.id} ${same.version} is already loaded from ${same.folder}`;
    const other = this.byId.get(manifest.id);
    if (other && other.manifest.kind !== manifest.kind) return `duplicate id: ${manifest.id} ${other.version} is already loaded from ${other.folder} as a ${other.manifest.kind} plugin`;
    if (manifest.kind === "channel") {
      const type = channelTypeOf(manifest);
      const served = this.byChannelType.get(type);
      if (served && served.id !== manifest.id) return `channel type "${type}" is already served by ${served.id}`;
    }
    return pluginErrorsConflict(manifest);
  }

  addLoaded(folder: string, manifest: PluginManifest, major: number, opts: { external?: boolean; installed?: boolean } = {}): LoadedPlugin {
    const p: LoadedPlugin = { id: manifest.id, folder, version: manifest.version, major, manifest, service: pluginServiceName(manifest.id, major) };
    if (opts.external || opts.installed) p.external = true;
    if (opts.installed) p.installed = true;
    if (manifest.kind === "channel") p.channelType = channelTypeOf(manifest);
    this.order.push({ kind: "loaded", p });
    addPluginErrors(manifest);
    const all = [...(this.versions.get(p.id) ?? []), p].sort((a, b) => b.major - a.major);
    this.versions.set(p.id, all);
    const newest = all[0];
    this.byId.set(p.id, newest);
    if (newest.channelType) this.byChannelType.set(newest.channelType, newest);
    return p;
  }

  /**
   * Forgets every entry of an id, loaded (all majors) or refused (a marketplace plugin
   * uninstalled or about to be replaced by another version). Answers the loaded ones removed.
   */
  remove(id: string): LoadedPlugin[] {
    const removed = this.versions.get(id) ?? [];
    for (let i = this.order.length - 1; i >= 0; i--) if (this.order[i].p.id === id) this.order.splice(i, 1);
    this.versions.delete(id);
    this.byId.delete(id);
    for (const [type, p] of this.byChannelType) if (p.id === id) this.byChannelType.delete(type);
    dropPluginErrors(id);
    return removed;
  }

  addRefused(p: RefusedPlugin): void {
    this.order.push({ kind: "refused", p });
  }

  /** Every loaded plugin, each major of an id apart, in discovery order. */
  loaded(): LoadedPlugin[] {
    return this.order.flatMap((e) => (e.kind === "loaded" ? [e.p] : []));
  }

  /** One entry per loaded id, its newest major, in discovery order of the ids. */
  latest(): LoadedPlugin[] {
    const ids = [...new Set(this.loaded().map((p) => p.id))];
    return ids.map((id) => this.byId.get(id)!);
  }

  /** The loaded majors of an id, newest first (empty when none). */
  versionsOf(id: string): LoadedPlugin[] {
    return [...(this.versions.get(id) ?? [])];
  }

  /** A loaded plugin by id: the given major, or the newest. */
  get(id: string, major?: number | null): LoadedPlugin | undefined {
    if (major === undefined || major === null) return this.byId.get(id);
    return this.versions.get(id)?.find((p) => p.major === major);
  }

  /** A loaded channel by connection type or by plugin id: the given major, or the newest. */
  channel(typeOrId: string, major?: number | null): LoadedPlugin | undefined {
    const newest = this.byChannelType.get(typeOrId) ?? this.byId.get(typeOrId);
    if (newest?.manifest.kind !== "channel") return undefined;
    return this.get(newest.id, major);
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
        ? { ...base, status: "loaded" as const, major: e.p.major, service: e.p.service, ...(e.p.external ? { external: true } : {}), ...(e.p.installed ? { installed: true } : {}) }
        : { ...base, status: "refused" as const, reason: e.p.reason };
    });
  }
}

/** The major of a semver version ("2.1.0" → 2). */
function majorOf(version: string): number {
  return Number.parseInt(version, 10);
}
