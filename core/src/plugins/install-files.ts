/**
 * The files and processes of an installed plugin: its archive fetched and unpacked under
 * DATA_DIR/plugins/<id>/<version>/, the environment its plugin node gets, the versions kept
 * on disk, and what the node said when it failed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import * as semver from "semver";
import type { ServiceBroker } from "moleculer";
import { ArchiveError, ArchiveFile, PluginManifest, hasPluginMigrations, inspectArchive } from "@openatende/plugin-sdk";
import type { AppConfig } from "@openatende/config";
import { AppError } from "../errors/app-error";
import { call } from "../bus/call";
import { pluginOwnDatabaseOf } from "./data";
import { pluginRedisUrl } from "./redis-access";
import { busKeyOf, pluginTokensEnv } from "../middlewares/caller-identity";

/** A semver version is a safe folder name; anything else is refused before touching the disk. */
export const VERSION_DIR = /^[0-9A-Za-z.+-]{1,64}$/;
export const PLUGIN_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The versions column (a JSON array) as a list; anything else as none. */
export const parseVersions = (raw: string | null | undefined): string[] => {
  try {
    const v = JSON.parse(raw ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/** Newest first, once each. */
export const sortVersions = (list: string[]) => [...new Set(list)].sort((a, b) => (semver.valid(a) && semver.valid(b) ? semver.rcompare(a, b) : b.localeCompare(a)));

/** A folder whose migrations/ cannot even be listed still gets its database: its node then refuses it, saying why. */
export function shipsMigrations(folder: string): boolean {
  try {
    return hasPluginMigrations(folder);
  } catch {
    return true;
  }
}

/**
 * The environment of an installed plugin's node; `folder` is the version it runs, `prefix` the
 * installation's Redis prefix (its Redis user opens only `<prefix>:<id>:*`: redis-access.ts).
 */
export function installedNodeEnv(c: AppConfig, id: string, folder: string, prefix?: string): Record<string, string | undefined> {
  return {
    // Its own database only, as its own user (MariaDB), never the core's DATABASE_URL.
    PLUGIN_DATABASE_URL: shipsMigrations(folder) ? pluginOwnDatabaseOf(c, id).url : undefined,
    // The bundle requires "moleculer" (the host provides it) from wherever it was unpacked.
    NODE_PATH: path.join(c.rootDir, "node_modules"),
    DATA_DIR: c.dataDir,
    REDIS_URL: prefix ? pluginRedisUrl(c, prefix, id) : c.redisUrl,
    PUBLIC_URL: c.publicUrl,
    LOG_LEVEL: c.logLevel,
    NODE_ENV: c.env,
    // Never the core's secret: a plugin node signs nothing, and must not read DATA_DIR/.jwt-secret.
    JWT_SECRET: randomBytes(32).toString("hex"),
    DATABASE_URL: undefined,
    PLUGIN_INSTALLS: "false",
    // Who it is: the core accepts its calls as this plugin's, and only the actions meant for plugins.
    PLUGIN_TOKENS: pluginTokensEnv(busKeyOf(c.jwtSecret), [id]),
  };
}

/**
 * The archive of `id`@`version` from the marketplace service, checked again here (checksum,
 * paths, manifest, core API range): it must hold that very version.
 */
export async function fetchArchive(broker: ServiceBroker, maxBytes: number, id: string, version: string): Promise<{ manifest: PluginManifest; files: ArchiveFile[]; checksum: string }> {
  const got = await call(broker, "marketplace.archive", { id, version });
  let inspected;
  try {
    inspected = inspectArchive(Buffer.from(got.archive, "base64"), { limits: { maxBytes }, checksum: got.checksum });
  } catch (err) {
    if (err instanceof ArchiveError) throw new AppError(err.code, { id, version, ...err.detail });
    throw err;
  }
  const { manifest } = inspected;
  if (manifest.id !== id || manifest.version !== version) {
    throw new AppError("ERR_ARCHIVE_MANIFEST_INVALID", { id, version, errors: [`the archive holds ${manifest.id}@${manifest.version}`] });
  }
  return { manifest, files: inspected.files, checksum: got.checksum };
}

/**
 * Writes the archive's files under `folder` (a sibling temp folder renamed into place). A
 * folder already there from an earlier install of the same archive is kept.
 */
export async function unpack(files: ArchiveFile[], folder: string, checksum: string): Promise<void> {
  const stamp = path.join(folder, ".checksum");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8").trim() === checksum) return;
  const parent = path.dirname(folder);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = path.join(parent, `.tmp-${path.basename(folder)}-${randomBytes(4).toString("hex")}`);
  try {
    for (const f of files) {
      const target = path.resolve(tmp, f.path);
      // readArchive refused unsafe paths already; this is the last line.
      if (!target.startsWith(tmp + path.sep)) throw new AppError("ERR_ARCHIVE_PATH_UNSAFE", { path: f.path });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, f.data, { mode: 0o644 });
    }
    fs.writeFileSync(path.join(tmp, ".checksum"), `${checksum}\n`);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.renameSync(tmp, folder);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** The node's error lines (refused …, failed …), short enough for an error's data. */
export function lastWords(tail: string): string {
  const lines = tail
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /refused|failed|error|not loaded/i.test(l));
  return (lines.length ? lines.slice(-3) : tail.split("\n").slice(-3)).join(" | ").slice(0, 500);
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
