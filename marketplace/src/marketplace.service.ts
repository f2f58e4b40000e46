/**
 * The marketplace: the catalogue of plugin packages published by third parties, and the
 * archives themselves.
 *
 * - Publishers are made by the platform level (super); each gets a token (`mkp_…`, shown once,
 *   kept as a SHA-256 hash) that it sends as `X-Publisher-Token` to publish.
 * - A publish uploads a plugin archive (see @openatende/plugin-sdk archive.ts), base64 in a JSON
 *   body with its SHA-256, checked and recorded as in ./publish.ts.
 * - The catalogue (super) lists plugins with their publisher, versions and what is installed
 *   on this platform (the core's plugin host answers that: ./catalogue.ts).
 * - `marketplace.archive` (internal) hands an archive to the installer.
 *
 * Like the core's plugins service, this one reads its models directly rather than through
 * tenantDbMixin (a mixin's adapter would get a deep copy of the shared Sequelize).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { Op, Sequelize, UniqueConstraintError, WhereOptions } from "sequelize";
import type { Service, ServiceSchema } from "moleculer";
import { PLUGIN_KINDS, PLUGIN_TIERS, sha256Hex } from "@openatende/plugin-sdk";
import { AppError, containsCI, type Ctx } from "@openatende/core";
import { MarketplaceModels, PublisherRow, defineMarketplaceModels } from "./models";
import { base64DecodedLength, createPublishing, decodeArchive } from "./publish";
import { createCatalogue } from "./catalogue";
import { PUBLISHER_TOKEN_HEADER, PUBLISHER_TOKEN_PREFIX } from "./types";
import type { ArchiveDownload, CatalogueDetail, CatalogueEntry, MarketplaceDeps, MarketplaceOptions, PublishResult, Publisher } from "./types";

export * from "./types";
export { appErrorOfArchive } from "./publish";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const newToken = () => `${PUBLISHER_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;

const pluginIdParam = { type: "string", min: 1, max: 64, trim: true } as const;
const versionParam = { type: "string", min: 1, max: 64, trim: true } as const;

export function createMarketplaceService(deps: MarketplaceDeps, opts: MarketplaceOptions = {}): ServiceSchema {
  const { sequelize } = deps;
  const models: MarketplaceModels = defineMarketplaceModels(sequelize);
  const { Publisher: PublisherM, Plugin: PluginM, Version: VersionM } = models;
  const maxBytes = opts.maxArchiveBytes ?? deps.config.marketplaceMaxArchiveBytes;
  const storageDir = path.resolve(opts.storageDir ?? path.join(deps.config.dataDir, "marketplace"));
  const archivePath = (id: string, version: string) => path.join(storageDir, id, `${version}.tgz`);
  const { publish } = createPublishing({ sequelize, models, maxBytes, storageDir, archivePath });
  const catalogue = createCatalogue(models);

  const publisherView = (r: PublisherRow): Publisher => ({ id: r.id, name: r.name, email: r.email, active: !!r.active, createdAt: r.createdAt });

  /** The publisher whose token the request carries; ERR_MARKETPLACE_TOKEN_INVALID (401) otherwise. */
  async function publisherOf(ctx: Ctx): Promise<PublisherRow> {
    const token = ctx.meta.headers?.[PUBLISHER_TOKEN_HEADER]?.trim();
    if (!token || !token.startsWith(PUBLISHER_TOKEN_PREFIX) || token.length > 200) throw new AppError("ERR_MARKETPLACE_TOKEN_INVALID");
    const row = await PublisherM.findOne({ where: { tokenHash: sha256(token) } });
    if (!row || !row.get("active")) throw new AppError("ERR_MARKETPLACE_TOKEN_INVALID");
    return row.get({ plain: true });
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
        async handler(this: Service, ctx: Ctx<{ archive: string; checksum: string }>): Promise<PublishResult> {
          // Size first, from the base64 text alone: nothing is decoded or looked up for an oversize upload.
          const b64 = ctx.params.archive;
          if (b64.length > Math.ceil(maxBytes / 3) * 4 + 1024 || base64DecodedLength(b64.replace(/\s+/g, "")) > maxBytes) {
            throw new AppError("ERR_ARCHIVE_TOO_LARGE", { maxBytes, size: base64DecodedLength(b64) });
          }
          const publisher = await publisherOf(ctx);
          const gz = decodeArchive(b64);
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
          const entries = await catalogue.entriesOf(ctx, rows.map((r) => r.get({ plain: true })));
          return { rows: entries, count: entries.length };
        },
      },

      get: {
        rest: "GET /marketplace/plugins/:id",
        access: "super",
        resource: "plugins",
        params: { id: pluginIdParam },
        handler(ctx: Ctx<{ id: string }>): Promise<CatalogueDetail> {
          return catalogue.detail(ctx, ctx.params.id);
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
