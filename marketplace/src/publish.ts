/**
 * Publishing: an uploaded archive becomes a catalogue version. The archive is checked (size,
 * checksum, safe tar, manifest, core API range, entry file, UI remote) before anything is
 * written; the first publisher of an id owns it; a version is published once. The archive
 * file and the rows appear together or not at all: the file is written to a temporary name,
 * the rows inserted in one transaction, and the file renamed into place
 * (`<storageDir>/<id>/<version>.tgz`) before the transaction commits.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import * as semver from "semver";
import { Sequelize, UniqueConstraintError } from "sequelize";
import { ArchiveError, inspectArchive } from "@openatende/plugin-sdk";
import { AppError } from "@openatende/core";
import type { MarketplaceModels, PublisherRow } from "./models";
import type { PublishResult } from "./types";

/** Bytes a MariaDB TEXT column holds. */
export const TEXT_MAX_BYTES = 65_535;
const DESCRIPTION_MAX = 500;

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

/** The step-5 AppError of an archive refusal: same code, its detail as data. */
export function appErrorOfArchive(err: ArchiveError): AppError {
  return new AppError(err.code, { ...err.detail });
}

/** Bytes a base64 string decodes to (without decoding it). */
export function base64DecodedLength(b64: string): number {
  const len = b64.length;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor((len * 3) / 4) - pad;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** The archive of a publish request's base64 text; ERR_ARCHIVE_INVALID when it is not base64. */
export function decodeArchive(b64: string): Buffer {
  const clean = b64.replace(/\s+/g, "");
  if (clean.length % 4 !== 0 || !BASE64_RE.test(clean)) throw new AppError("ERR_ARCHIVE_INVALID", { reason: "archive is not base64" });
  return Buffer.from(clean, "base64");
}

export interface PublisherOptions {
  sequelize: Sequelize;
  models: MarketplaceModels;
  maxBytes: number;
  storageDir: string;
  archivePath(id: string, version: string): string;
}

/** `publish(publisher, gz, checksum)`: checks the archive and records it as a version (see the file's comment). */
export function createPublishing(o: PublisherOptions) {
  const { sequelize, maxBytes, storageDir } = o;
  const { Plugin: PluginM, Version: VersionM } = o.models;

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
    const finalPath = o.archivePath(id, version);
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

  return { publish };
}
