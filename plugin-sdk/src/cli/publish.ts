/**
 * `plugin-sdk publish`: uploads an archive made by `pack` to a marketplace:
 * POST <registry>/api/marketplace/publish, header X-Publisher-Token, JSON { archive (base64), checksum }.
 * An error answer (the API's shape: { error, title, message, data }) is printed as code, title
 * and detail.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { archiveFileName, sha256Hex } from "../archive";
import { CliError, errorMessage, formatBytes, parseArgs, str, UsageError } from "./args";
import { readPluginFolder } from "./workspace";

/** The CLI's own setting (a tool, not the platform): the publisher token when --token is not given. */
export const TOKEN_ENV = "PLUGIN_SDK_TOKEN";

export const PUBLISH_HELP = `Usage: plugin-sdk publish [archive.tgz | dir] --registry <url> [--token <publisher token>] [--json]

Uploads a plugin archive to a marketplace. The argument is the .tgz made by plugin-sdk pack, or a
plugin folder (default: the current folder), whose dist/<id>-<version>.tgz is taken (run pack first).
When <archive>.sha256 exists beside it, it must match the archive.

  --registry <url>  the platform's address, with or without /api (e.g. https://atende.example.com)
  --token <token>   the publisher token (mkp_…); default: the ${TOKEN_ENV} environment variable
  --lang <locale>   language of the error texts (pt-BR, en, es, ru; default en)
  --json            print the registry's answer as one JSON line
Sends POST <registry>/api/marketplace/publish with header X-Publisher-Token and {archive (base64), checksum}.
Exit code: 0 published, 1 refused or unreachable (the API's code, title and detail are printed), 2 bad usage.`;

/** "<registry>" or "<registry>/api" (trailing slashes or not) → the publish URL. */
export function publishUrl(registry: string): string {
  let url: URL;
  try {
    url = new URL(registry);
  } catch {
    throw new UsageError(`--registry must be an http(s) URL, got ${JSON.stringify(registry)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--registry must be an http(s) URL, got ${JSON.stringify(registry)}`);
  const base = url.pathname.replace(/\/+$/, "");
  url.pathname = `${base.endsWith("/api") ? base : `${base}/api`}/marketplace/publish`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

/** The archive a `publish` argument names: a .tgz file, or a plugin folder's dist/<id>-<version>.tgz. */
export function findArchive(target: string | undefined): string {
  const p = path.resolve(target ?? ".");
  if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
  if (target && /\.tgz$/i.test(target)) throw new CliError(`${p} not found`);
  const { dir, pkg } = readPluginFolder(p);
  const id = (pkg.platform as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || typeof pkg.version !== "string") throw new CliError(`${dir}/package.json has no platform.id or version (run plugin-sdk validate)`);
  const file = path.join(dir, "dist", archiveFileName(id, pkg.version));
  if (!fs.existsSync(file)) throw new CliError(`${path.relative(process.cwd(), file) || file} not found: run plugin-sdk pack ${path.relative(process.cwd(), dir) || "."} first`);
  return file;
}

interface ApiErrorBody {
  error?: unknown;
  title?: unknown;
  message?: unknown;
  data?: { errors?: unknown } & Record<string, unknown>;
}

/** The lines an error answer is printed as: "<code>: <title> — <detail>" and any listed reasons. */
export function describeErrorAnswer(status: number, text: string): string[] {
  let body: ApiErrorBody | null = null;
  try {
    body = JSON.parse(text) as ApiErrorBody;
  } catch {
    body = null;
  }
  if (!body || typeof body !== "object" || typeof body.error !== "string") {
    const snippet = text.replace(/\s+/g, " ").trim().slice(0, 200);
    return [`the registry answered HTTP ${status}${snippet ? `: ${snippet}` : ""}`];
  }
  const title = typeof body.title === "string" ? body.title : "";
  const detail = typeof body.message === "string" ? body.message : "";
  const lines = [`refused (HTTP ${status}) ${body.error}: ${[title, detail].filter(Boolean).join(" — ")}`];
  const reasons = Array.isArray(body.data?.errors) ? body.data!.errors : [];
  for (const r of reasons) lines.push(`  - ${typeof r === "string" ? r : JSON.stringify(r)}`);
  return lines;
}

export async function publishCommand(argv: string[], env: Record<string, string | undefined> = {}): Promise<number> {
  const args = parseArgs(argv, { registry: { type: "string" }, token: { type: "string" }, lang: { type: "string" }, json: { type: "boolean" } }, 1);
  if (args.flags.help) {
    console.log(PUBLISH_HELP);
    return 0;
  }
  const registry = str(args.flags.registry);
  if (!registry) throw new UsageError("missing --registry <url>");
  const url = publishUrl(registry);
  const token = str(args.flags.token) ?? env[TOKEN_ENV];
  if (!token) throw new UsageError(`missing --token (or the ${TOKEN_ENV} environment variable)`);
  const lang = str(args.flags.lang) ?? "en";
  if (!["pt-BR", "en", "es", "ru"].includes(lang)) throw new UsageError(`--lang must be pt-BR, en, es or ru, got ${JSON.stringify(lang)}`);

  const file = findArchive(args.positionals[0]);
  const archive = fs.readFileSync(file);
  const checksum = sha256Hex(archive);
  const sidecar = `${file}.sha256`;
  if (fs.existsSync(sidecar)) {
    const expected = fs.readFileSync(sidecar, "utf8").trim().split(/\s+/)[0]?.toLowerCase();
    if (expected !== checksum) throw new CliError(`${path.basename(file)} does not match ${path.basename(sidecar)} (${expected} ≠ ${checksum}): pack it again`);
  }

  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "accept-language": lang, "x-publisher-token": token },
      body: JSON.stringify({ archive: archive.toString("base64"), checksum }),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? errorMessage(err)}`);
  }
  const text = await res.text();
  if (!res.ok) {
    const [first, ...more] = describeErrorAnswer(res.status, text);
    console.error(`plugin-sdk publish: ${first}`);
    for (const line of more) console.error(line);
    return 1;
  }
  let answer: { id?: string; version?: string; checksum?: string; size?: number; publishedAt?: string } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    throw new CliError(`the registry answered HTTP ${res.status} with no JSON`);
  }
  if (args.flags.json) console.log(JSON.stringify(answer));
  else {
    console.log(`published ${answer.id ?? "?"}@${answer.version ?? "?"} to ${url.replace(/\/marketplace\/publish$/, "")}`);
    console.log(`  archive  ${file} (${formatBytes(archive.length)})`);
    console.log(`  sha256   ${answer.checksum ?? checksum}`);
    if (answer.publishedAt) console.log(`  at       ${answer.publishedAt}`);
  }
  return 0;
}
