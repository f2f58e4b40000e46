/**
 * Plugin archives: a gzip-compressed POSIX ustar tar, named `<id>-<version>.tgz`, with a
 * checksum file `<id>-<version>.tgz.sha256` (`<sha256 hex>  <file name>\n`). Layout:
 *
 *   package.json            manifest in `platform`; "main": "dist/server/index.js"
 *   README.md               optional
 *   CHANGELOG.md            optional (shown in the catalogue)
 *   dist/server/index.js    CJS bundle of the plugin's service
 *   dist/ui/**              the UI remote (remoteEntry.js + assets) when the manifest has `ui`
 *
 * The tar writer and reader are written here (no tar dependency): the reader is the gate the
 * marketplace and the plugin installer put in front of anything uploaded, so it refuses
 * rather than guesses: unsafe paths, links, devices, duplicates, bad header checksums and
 * anything over the size limits (checked while gunzipping, so a gzip bomb never fills memory).
 */
import { CORE_API_VERSION, PluginManifest, isCoreApiCompatible, validateManifest } from "./manifest";
import { ArchiveError, ARCHIVE_MAIN, ARCHIVE_UI_DIR, DEFAULT_UI_REMOTE_ENTRY_FILE, safeEntryPath, sha256Hex, type ArchiveFile, type ArchiveLimits } from "./archive-format";
import { readArchive } from "./archive-read";

// The format (archive-format.ts), the writer (archive-write.ts) and the reader (archive-read.ts) are this module's API.
export {
  ArchiveError,
  ARCHIVE_MAIN,
  ARCHIVE_UI_DIR,
  DEFAULT_MAX_ENTRIES,
  MAX_ARCHIVE_PATH_BYTES,
  MAX_UNPACKED_CAP,
  archiveFileName,
  checksumFileContent,
  defaultMaxUnpackedBytes,
  sha256Hex,
} from "./archive-format";
export type { ArchiveErrorCode, ArchiveFile, ArchiveLimits } from "./archive-format";
export { packArchive, writeTar } from "./archive-write";
export { readArchive } from "./archive-read";

export interface InspectedArchive {
  manifest: PluginManifest;
  pkg: Record<string, unknown>;
  files: ArchiveFile[];
  checksum: string;
  size: number;
  readme: string | null;
  changelog: string | null;
}

/** Takes the hex of a checksum given as "<hex>" or as a `.sha256` file's "<hex>  <name>". */
function normaliseChecksum(c: string): string {
  return c.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
}

/**
 * size → checksum (when given; mismatch → CHECKSUM_MISMATCH) → readArchive → package.json at
 * the root, validateManifest ok, coreApi compatible with coreApiVersion (default
 * CORE_API_VERSION), main === "dist/server/index.js" and present, `dist/ui/<remoteEntry>`
 * present when manifest.ui → otherwise MANIFEST_INVALID with the reasons in detail.errors.
 */
export function inspectArchive(gz: Buffer, opts: { limits: ArchiveLimits; checksum?: string; coreApiVersion?: string }): InspectedArchive {
  if (gz.length > opts.limits.maxBytes) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { size: gz.length, maxBytes: opts.limits.maxBytes });
  const checksum = sha256Hex(gz);
  if (opts.checksum !== undefined && normaliseChecksum(opts.checksum) !== checksum) {
    throw new ArchiveError("ERR_ARCHIVE_CHECKSUM_MISMATCH", { expected: normaliseChecksum(opts.checksum), actual: checksum });
  }
  const files = readArchive(gz, opts.limits);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const invalid = (errors: string[]) => new ArchiveError("ERR_ARCHIVE_MANIFEST_INVALID", { errors });

  const pkgFile = byPath.get("package.json");
  if (!pkgFile) throw invalid(["package.json missing at the archive root"]);
  let pkg: unknown;
  try {
    pkg = JSON.parse(pkgFile.data.toString("utf8"));
  } catch (err) {
    throw invalid([`package.json is not valid JSON: ${(err as Error).message}`]);
  }
  const checked = validateManifest(pkg);
  if (!checked.ok) throw invalid(checked.errors);
  const manifest = checked.manifest;
  const pkgObj = pkg as Record<string, unknown>;

  const errors: string[] = [];
  const coreApiVersion = opts.coreApiVersion ?? CORE_API_VERSION;
  if (!isCoreApiCompatible(manifest.coreApi, coreApiVersion)) errors.push(`platform.coreApi ${JSON.stringify(manifest.coreApi)} is not compatible with core API ${coreApiVersion}`);
  if (pkgObj.main !== ARCHIVE_MAIN) errors.push(`main must be ${JSON.stringify(ARCHIVE_MAIN)} (got ${JSON.stringify(pkgObj.main)})`);
  else if (!byPath.has(ARCHIVE_MAIN)) errors.push(`${ARCHIVE_MAIN} (main) is missing from the archive`);
  if (manifest.ui) {
    const entry = `${ARCHIVE_UI_DIR}/${manifest.ui.remoteEntry ?? DEFAULT_UI_REMOTE_ENTRY_FILE}`;
    let normalised: string | null;
    try {
      normalised = safeEntryPath(entry);
    } catch {
      normalised = null;
    }
    if (!normalised || !byPath.has(normalised)) errors.push(`${entry} (the UI remote entry) is missing from the archive`);
  }
  if (errors.length) throw invalid(errors);

  const text = (p: string) => byPath.get(p)?.data.toString("utf8") ?? null;
  return { manifest, pkg: pkgObj, files, checksum, size: gz.length, readme: text("README.md"), changelog: text("CHANGELOG.md") };
}
