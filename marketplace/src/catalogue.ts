/**
 * The catalogue as the platform level sees it: plugins with their publisher, versions and what
 * is installed on this platform. What is installed belongs to the core's plugin host, which
 * answers it through `plugins.installed` (the marketplace reads none of its tables).
 */
import * as semver from "semver";
import { Op, Sequelize } from "sequelize";
import { CORE_API_VERSION, PluginManifest, isCoreApiCompatible } from "@openatende/plugin-sdk";
import { AppError, call, type Ctx } from "@openatende/core";
import type { MarketplaceModels, MarketplacePluginRow, MarketplaceVersionRow } from "./models";
import type { CatalogueDetail, CatalogueEntry, InstalledInfo } from "./types";

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** semver descending (invalid versions last). */
const bySemverDesc = (a: string, b: string) => {
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.rcompare(va, vb);
  return va ? -1 : vb ? 1 : b.localeCompare(a);
};

export function createCatalogue(models: MarketplaceModels) {
  const { Publisher: PublisherM, Plugin: PluginM, Version: VersionM } = models;

  /** The plugin host's installs of `ids`, asked on the caller's behalf. */
  async function installsOf(ctx: Ctx, ids: string[]): Promise<Map<string, InstalledInfo>> {
    if (!ids.length) return new Map();
    const wanted = new Set(ids);
    const installed = await call(ctx, "plugins.installed", {});
    return new Map(
      installed
        .filter((p) => wanted.has(p.id))
        .map((p): [string, InstalledInfo] => [p.id, { version: p.version, previousVersion: p.previousVersion ?? null, versions: [...p.versions] }]),
    );
  }

  async function entriesOf(ctx: Ctx, rows: MarketplacePluginRow[]): Promise<CatalogueEntry[]> {
    const ids = rows.map((r) => r.id);
    const publisherIds = [...new Set(rows.map((r) => r.publisherId))];
    const [publishers, counts, installs] = await Promise.all([
      publisherIds.length ? PublisherM.findAll({ where: { id: { [Op.in]: publisherIds } }, attributes: ["id", "name"] }) : Promise.resolve([]),
      ids.length
        ? (VersionM.findAll({
            where: { pluginId: { [Op.in]: ids } },
            attributes: ["pluginId", [Sequelize.fn("COUNT", Sequelize.col("id")), "n"]],
            group: ["pluginId"],
            raw: true,
          }) as unknown as Promise<Array<{ pluginId: string; n: number | string }>>)
        : Promise.resolve([]),
      installsOf(ctx, ids),
    ]);
    const names = new Map(publishers.map((p) => [p.get("id") as number, p.get("name") as string]));
    const nVersions = new Map(counts.map((c) => [c.pluginId, Number(c.n)]));
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      tier: r.tier,
      displayName: parseJson<Record<string, string>>(r.displayName, {}),
      description: r.description ?? null,
      latestVersion: r.latestVersion,
      publisher: { id: r.publisherId, name: names.get(r.publisherId) ?? "" },
      versions: nVersions.get(r.id) ?? 0,
      updatedAt: r.updatedAt,
      installed: installs.get(r.id) ?? null,
    }));
  }

  /** One plugin with every version (newest first), and the readme and manifest of its latest. */
  async function detail(ctx: Ctx, id: string): Promise<CatalogueDetail> {
    const row = await PluginM.findByPk(id);
    if (!row) throw new AppError("ERR_MARKETPLACE_PLUGIN_NOT_FOUND", { id });
    const [entry] = await entriesOf(ctx, [row.get({ plain: true })]);
    const versions = (await VersionM.findAll({ where: { pluginId: id } })).map((v) => v.get({ plain: true }) as MarketplaceVersionRow);
    versions.sort((a, b) => bySemverDesc(a.version, b.version));
    const latest = versions.find((v) => v.version === entry.latestVersion) ?? versions[0];
    return {
      ...entry,
      readme: latest?.readme ?? null,
      manifest: parseJson<PluginManifest>(latest?.manifest, {} as PluginManifest),
      versions: versions.map((v) => ({
        version: v.version,
        coreApi: v.coreApi,
        tier: v.tier,
        checksum: v.checksum,
        size: v.size,
        changelog: v.changelog ?? null,
        publishedAt: v.publishedAt,
        compatible: isCoreApiCompatible(v.coreApi, CORE_API_VERSION),
      })),
    };
  }

  return { entriesOf, detail };
}
