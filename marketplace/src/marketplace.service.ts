/**
 * The marketplace: the catalogue of plugin packages published by third parties, and the
 * archives themselves.
 *
 * - Publishers are made by the platform level (super); each gets a token (`mkp_…`, shown once,
 *   kept as a SHA-256 hash) that it sends as `X-Publisher-Token` to publish.
 * - A publish uploads a plugin archive (see @openatende/plugin-sdk archive.ts), base64 in a JSON
 *   body with its SHA-256. The archive is checked (size, checksum, safe tar, manifest, core API
 *   range, entry file, UI remote) before anything is written; the first publisher of an id owns
 *   it; a version is published once. The archive file and the rows appear together or not at
 *   all: the file is written to a temporary name, the rows inserted in one transaction, and the
 *   file renamed into place (`<storageDir>/<id>/<version>.tgz`) before the transaction commits.
 * - The catalogue (super) lists plugins with their publisher, versions and what is installed
 *   on this platform (plugin_installs, written by the core's plugins service).
 * - `marketplace.archive` (internal) hands an archive to the installer.
 *
 * Like the core's plugins service, this one reads its models directly rather than through
 * tenantDbMixin (a mixin's adapter would get a deep copy of the shared Sequelize).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import * as semver from "semver";
import { Op, Sequelize, UniqueConstraintError, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "@openatende/config";
import { ArchiveError, CORE_API_VERSION, PLUGIN_KINDS, PLUGIN_TIERS, PluginManifest, inspectArchive, isCoreApiCompatible, sha256Hex } from "@openatende/plugin-sdk";
import { AppError } from "@openatende/core/src/errors/app-error";
import { containsCI } from "@openatende/core/src/db/search";
import type { Ctx } from "@openatende/core/src/types";
import { MarketplaceModels, MarketplacePluginRow, MarketplaceVersionRow, PluginInstallRow, PublisherRow, defineMarketplaceModels } from "./models";

export interface MarketplaceDeps {
  config: AppConfig;
  sequelize: Sequelize;
}

export interface MarketplaceOptions {
  /** Largest archive accepted, bytes (default config.marketplaceMaxArchiveBytes). */
  maxArchiveBytes?: number;
  /** Where archives are kept (default DATA_DIR/marketplace). */
  storageDir?: string;
}

export interface Publisher {
  id: number;
  name: string;
  email: string;
  active: boolean;
  createdAt: Date;
}

export interface InstalledInfo {
  version: string;
  previousVersion: string | null;
  versions: string[];
}

export interface CatalogueEntry {
  id: string;
  kind: string;
  tier: string;
  displayName: Record<string, string>;
  description: string | null;
  latestVersion: string;
  publisher: { id: number; name: string };
  versions: number;
  updatedAt: Date;
  installed: InstalledInfo | null;
}

export interface CatalogueVersion {
  version: string;
  coreApi: string;
  tier: string;
  checksum: string;
  size: number;
  changelog: string | null;
  publishedAt: Date;
  /** The version's coreApi range accepts this core's API version. */
  compatible: boolean;
}

export type CatalogueDetail = Omit<CatalogueEntry, "versions"> & {
  readme: string | null;
  manifest: PluginManifest;
  versions: CatalogueVersion[];
};

export interface PublishResult {
  id: string;
  version: string;
  checksum: string;
  size: number;
  publishedAt: Date;
}

export interface ArchiveDownload {
  id: string;
  version: string;
  checksum: string;
  size: number;
  /** The .tgz, base64. */
  archive: string;
}

export const PUBLISHER_TOKEN_HEADER = "x-publisher-token";
export const PUBLISHER_TOKEN_PREFIX = "mkp_";

/** Bytes a MariaDB TEXT column holds. */
const TEXT_MAX_BYTES = 65_535;
const DESCRIPTION_MAX = 500;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const newToken = () => `${PUBLISHER_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;

/** The longest prefix of `s` that fits `maxBytes` of UTF-8 (never cutting a character). */
function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  let out = Buffer.from(s).subarray(0, maxBytes).toString("utf8");
  // A cut character decodes as U+FFFD at the end: drop it.
  while (out.endsWith("\uFFFD") && Buffer.byteLength(out) > maxBytes - 3) out = out.slice(0, -1);
  return out;
}

/** Text columns: kept whole up to the column's size, cut with a note beyond it. */
function fitText(s: string | null): string | null {
  if (s === null) return null;
  const note = "\n\n[…]";
  return Buffer.byteLength(s) <= TEXT_MAX_BYTES ? s : truncateUtf8(s, TEXT_MAX_BYTES - Buffer.byteLength(note)) + note;
}

function parseJson<T>(text: string | null | undefined, fallback: T): T {
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

/** The step-5 AppError of an archive refusal: same code, its detail as data. */
export function appErrorOfArchive(err: ArchiveError): AppError {
  return new AppError(err.code, { ...err.detail });
}

/** Bytes a base64 string decodes to (without decoding it). */
function base64DecodedLength(b64: string): number {
  const len = b64.length;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor((len * 3) / 4) - pad;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const pluginIdParam = { type: "string", min: 1, max: 64, trim: true } as const;
const versionParam = { type: "string", min: 1, max: 64, trim: true } as const;

export function createMarketplaceService(deps: MarketplaceDeps, opts: MarketplaceOptions = {}): ServiceSchema {
  const { sequelize } = deps;
  const models: MarketplaceModels = defineMarketplaceModels(sequelize);
  const { Publisher: PublisherM, Plugin: PluginM, Version: VersionM, Install: InstallM } = models;
  const maxBytes = opts.maxArchiveBytes ?? deps.config.marketplaceMaxArchiveBytes;
  const storageDir = path.resolve(opts.storageDir ?? path.join(deps.config.dataDir, "marketplace"));
  const archivePath = (id: string, version: string) => path.join(storageDir, id, `${version}.tgz`);

  const publisherView = (r: PublisherRow): Publisher => ({ id: r.id, name: r.name, email: r.email, active: !!r.active, createdAt: r.createdAt });

  /** The publisher whose token the request carries; ERR_MARKETPLACE_TOKEN_INVALID (401) otherwise. */
  async function publisherOf(ctx: Ctx): Promise<PublisherRow> {
    const token = ctx.meta.headers?.[PUBLISHER_TOKEN_HEADER]?.trim();
    if (!token || !token.startsWith(PUBLISHER_TOKEN_PREFIX) || token.length > 200) throw new AppError("ERR_MARKETPLACE_TOKEN_INVALID");
    const row = await PublisherM.findOne({ where: { tokenHash: sha256(token) } });
    if (!row || !row.get("active")) throw new AppError("ERR_MARKETPLACE_TOKEN_INVALID");
    return row.get({ plain: true });
  }

  async function installsOf(ids: string[]): Promise<Map<string, InstalledInfo>> {
    if (!ids.length) return new Map();
    const rows = await InstallM.findAll({ where: { pluginId: { [Op.in]: ids } }, attributes: ["pluginId", "version", "previousVersion", "versions"] });
    return new Map(
      rows.map((r) => {
        const p = r.get({ plain: true }) as PluginInstallRow;
        const versions = parseJson<unknown>(p.versions, []);
        return [p.pluginId, { version: p.version, previousVersion: p.previousVersion ?? null, versions: Array.isArray(versions) ? versions.map(String) : [] }];
      }),
    );
  }

  async function entriesOf(rows: MarketplacePluginRow[]): Promise<CatalogueEntry[]> {
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
      installsOf(ids),
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

  /** Writes `data` to a temporary file of the storage dir (same file system as the final place). */
  async function writeTemp(data: Buffer): Promise<string> {
    await fs.promises.mkdir(storageDir, { recursive: true });
    const tmp = path.join(storageDir, `.upload-${process.pid}-${randomBytes(8).toString("hex")}.tmp`);
    const fh = await fs.promises.open(tmp, "wx", 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    return tmp;
  }

  /** Why a publish of `id`@`version` by `publisherId` cannot go on (owner, version), or null. */
  async function conflictOf(id: string, version: string, publisherId: number): Promise<AppError | null> {
    const plugin = await PluginM.findByPk(id, { attributes: ["id", "publisherId"] });
    if (plugin && plugin.get("publisherId") !== publisherId) return new AppError("ERR_MARKETPLACE_PLUGIN_OWNED", { id });
    if (await VersionM.findOne({ where: { pluginId: id, version }, attributes: ["id"] })) return new AppError("ERR_MARKETPLACE_VERSION_EXISTS", { id, version });
    return null;
  }

  async function publish(publisher: PublisherRow, gz: Buffer, checksum: string): Promise<PublishResult> {
    let inspected;
    try {
      inspected = inspectArchive(gz, { limits: { maxBytes }, checksum });
    } catch (err) {
      if (err instanceof ArchiveError) throw appErrorOfArchive(err);
      throw err;
    }
    const { manifest, pkg } = inspected;
    const id = manifest.id;
    const version = manifest.version;
    // The version is a file name: semver.valid already refuses '/', but be explicit.
    if (version.includes("/") || version.includes("\\") || version.startsWith(".")) throw new AppError("ERR_ARCHIVE_MANIFEST_INVALID", { errors: [`version ${version} cannot name a file`] });
    const manifestText = JSON.stringify(manifest);
    if (Buffer.byteLength(manifestText) > TEXT_MAX_BYTES) throw new AppError("ERR_ARCHIVE_MANIFEST_INVALID", { errors: [`the manifest is over ${TEXT_MAX_BYTES} bytes`] });

    const conflict = await conflictOf(id, version, publisher.id);
    if (conflict) throw conflict;

    const description = typeof pkg.description === "string" && pkg.description.trim() ? pkg.description.trim().slice(0, DESCRIPTION_MAX) : null;
    const publishedAt = new Date();
    const finalPath = archivePath(id, version);
    const tmp = await writeTemp(gz);
    let renamed = false;
    try {
      await sequelize.transaction(async (transaction) => {
        const plugin = await PluginM.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
        const fields = {
          kind: manifest.kind,
          tier: manifest.tier,
          displayName: JSON.stringify(manifest.displayName),
          description,
          latestVersion: version,
        };
        if (!plugin) {
          await PluginM.create({ id, publisherId: publisher.id, ...fields }, { transaction });
        } else {
          if (plugin.get("publisherId") !== publisher.id) throw new AppError("ERR_MARKETPLACE_PLUGIN_OWNED", { id });
          const latest = plugin.get("latestVersion") as string;
          if (!semver.valid(latest) || semver.gt(version, latest)) await plugin.update(fields, { transaction });
        }
        await VersionM.create(
          {
            pluginId: id,
            version,
            checksum: inspected.checksum,
            size: inspected.size,
            coreApi: manifest.coreApi,
            tier: manifest.tier,
            manifest: manifestText,
            changelog: fitText(inspected.changelog),
            readme: fitText(inspected.readme),
            publishedAt,
          },
          { transaction },
        );
        // Last step before the commit: the file takes its place. A failure here rolls back.
        await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
        await fs.promises.rename(tmp, finalPath);
        renamed = true;
      });
    } catch (err) {
      await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
      // The rename happened but the commit failed: the rows are gone, so is the file.
      if (renamed) await fs.promises.rm(finalPath, { force: true }).catch(() => undefined);
      if (err instanceof UniqueConstraintError) {
        // Another publish of the same id or version won the race.
        throw (await conflictOf(id, version, publisher.id)) ?? new AppError("ERR_MARKETPLACE_VERSION_EXISTS", { id, version });
      }
      throw err;
    }
    return { id, version, checksum: inspected.checksum, size: inspected.size, publishedAt };
  }

  return {
    name: "marketplace",
    settings: { rest: "/" },

    actions: {
      // --- publishers (super) ----------------------------------------------------------------
      createPublisher: {
        rest: "POST /marketplace/publishers",
        access: "super",
        params: {
          name: { type: "string", min: 1, max: 120, trim: true },
          email: { type: "email", max: 190, normalize: true },
        },
        async handler(ctx: Ctx<{ name: string; email: string }>): Promise<Publisher & { token: string }> {
          const token = newToken();
          let row;
          try {
            row = await PublisherM.create({
              name: ctx.params.name,
              email: ctx.params.email.toLowerCase(),
              tokenHash: sha256(token),
              tokenHint: token.slice(0, 8),
              active: true,
              createdBy: ctx.meta.user?.id ?? null,
            });
          } catch (err) {
            if (err instanceof UniqueConstraintError) throw new AppError("ERR_MARKETPLACE_PUBLISHER_EXISTS", { field: "email" });
            throw err;
          }
          ctx.meta.$statusCode = 201;
          return { ...publisherView(row.get({ plain: true })), token };
        },
      },

      listPublishers: {
        rest: "GET /marketplace/publishers",
        access: "super",
        params: {},
        async handler(): Promise<Array<Publisher & { plugins: number }>> {
          const [rows, counts] = await Promise.all([
            PublisherM.findAll({ order: [["id", "ASC"]] }),
            PluginM.findAll({ attributes: ["publisherId", [Sequelize.fn("COUNT", Sequelize.col("id")), "n"]], group: ["publisherId"], raw: true }) as unknown as Promise<
              Array<{ publisherId: number; n: number | string }>
            >,
          ]);
          const n = new Map(counts.map((c) => [Number(c.publisherId), Number(c.n)]));
          return rows.map((r) => {
            const p = r.get({ plain: true });
            return { ...publisherView(p), plugins: n.get(p.id) ?? 0 };
          });
        },
      },

      rotateToken: {
        rest: "POST /marketplace/publishers/:id/token",
        access: "super",
        resource: "marketplacePublishers",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>): Promise<{ id: number; token: string }> {
          const row = await PublisherM.findByPk(ctx.params.id);
          if (!row) throw new AppError("ERR_MARKETPLACE_PUBLISHER_NOT_FOUND", { id: ctx.params.id });
          const token = newToken();
          await row.update({ tokenHash: sha256(token), tokenHint: token.slice(0, 8) });
          return { id: ctx.params.id, token };
        },
      },

      // --- publishing (publisher token) ------------------------------------------------------
      publish: {
        rest: "POST /marketplace/publish",
        access: "public",
        headers: [PUBLISHER_TOKEN_HEADER],
        params: {
          archive: { type: "string", min: 1 },
          checksum: { type: "string", min: 64, max: 64, pattern: /^[0-9a-fA-F]{64}$/ },
        },
        async handler(this: any, ctx: Ctx<{ archive: string; checksum: string }>): Promise<PublishResult> {
          // Size first, from the base64 text alone: nothing is decoded or looked up for an oversize upload.
          const b64 = ctx.params.archive;
          if (b64.length > Math.ceil(maxBytes / 3) * 4 + 1024 || base64DecodedLength(b64.replace(/\s+/g, "")) > maxBytes) {
            throw new AppError("ERR_ARCHIVE_TOO_LARGE", { maxBytes, size: base64DecodedLength(b64) });
          }
          const publisher = await publisherOf(ctx);
          const clean = b64.replace(/\s+/g, "");
          if (clean.length % 4 !== 0 || !BASE64_RE.test(clean)) throw new AppError("ERR_ARCHIVE_INVALID", { reason: "archive is not base64" });
          const gz = Buffer.from(clean, "base64");
          const result = await publish(publisher, gz, ctx.params.checksum.toLowerCase());
          ctx.meta.$statusCode = 201;
          this.logger.info(`Published ${result.id}@${result.version} by publisher ${publisher.id} (${result.size} bytes)`);
          return result;
        },
      },

      // --- the catalogue (super) ------------------------------------------------------------
      list: {
        rest: "GET /marketplace/plugins",
        access: "super",
        params: {
          search: { type: "string", optional: true, max: 200, trim: true },
          kind: { type: "enum", values: [...PLUGIN_KINDS, ""], optional: true },
          tier: { type: "enum", values: [...PLUGIN_TIERS, ""], optional: true },
        },
        async handler(ctx: Ctx<{ search?: string; kind?: string; tier?: string }>): Promise<{ rows: CatalogueEntry[]; count: number }> {
          const and: WhereOptions[] = [];
          const { search, kind, tier } = ctx.params;
          if (search) and.push({ [Op.or]: [containsCI("id", search), containsCI("displayName", search), containsCI("description", search)] });
          if (kind) and.push({ kind });
          if (tier) and.push({ tier });
          const rows = await PluginM.findAll({ where: and.length ? { [Op.and]: and } : {}, order: [["id", "ASC"]] });
          const entries = await entriesOf(rows.map((r) => r.get({ plain: true })));
          return { rows: entries, count: entries.length };
        },
      },

      get: {
        rest: "GET /marketplace/plugins/:id",
        access: "super",
        resource: "plugins",
        params: { id: pluginIdParam },
        async handler(ctx: Ctx<{ id: string }>): Promise<CatalogueDetail> {
          const row = await PluginM.findByPk(ctx.params.id);
          if (!row) throw new AppError("ERR_MARKETPLACE_PLUGIN_NOT_FOUND", { id: ctx.params.id });
          const [entry] = await entriesOf([row.get({ plain: true })]);
          const versions = (await VersionM.findAll({ where: { pluginId: ctx.params.id } })).map((v) => v.get({ plain: true }) as MarketplaceVersionRow);
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
        },
      },

      // --- internal --------------------------------------------------------------------------
      /** One version's archive, base64, checked against its recorded checksum (for the installer). */
      archive: {
        visibility: "public",
        params: { id: pluginIdParam, version: versionParam },
        async handler(ctx: Ctx<{ id: string; version: string }>): Promise<ArchiveDownload> {
          const { id, version } = ctx.params;
          const v = await VersionM.findOne({ where: { pluginId: id, version } });
          if (!v) {
            if (!(await PluginM.findByPk(id, { attributes: ["id"] }))) throw new AppError("ERR_MARKETPLACE_PLUGIN_NOT_FOUND", { id });
            throw new AppError("ERR_MARKETPLACE_VERSION_NOT_FOUND", { id, version });
          }
          let data: Buffer;
          try {
            data = await fs.promises.readFile(archivePath(id, version));
          } catch {
            throw new AppError("ERR_MARKETPLACE_VERSION_NOT_FOUND", { id, version, reason: "archive file missing" });
          }
          const checksum = v.get("checksum") as string;
          const actual = sha256Hex(data);
          if (actual !== checksum) throw new AppError("ERR_ARCHIVE_CHECKSUM_MISMATCH", { expected: checksum, actual });
          return { id, version, checksum, size: data.length, archive: data.toString("base64") };
        },
      },
    },

    methods: {
      /** Where archives are kept (tests). */
      storageDir(): string {
        return storageDir;
      },
    },
  };
}
