/**
 * `plugin-sdk create <id> --kind channel`: a working plugin folder from the templates in
 * plugin-sdk/templates/<kind>/ (files named `*.tmpl`, `__TOKEN__` placeholders), plus a
 * package.json whose manifest is built here and checked with validateManifest.
 *
 * How to extend: a new kind is a folder of templates and an entry in SCAFFOLDS.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as semver from "semver";
import { CORE_API_VERSION, PLUGIN_ID_MAX, PLUGIN_ID_PATTERN, PLUGIN_KINDS, PLUGIN_TIERS, PluginTier, validateManifest } from "../manifest";
import { CliError, parseArgs, str, UsageError } from "./args";
import { TEMPLATES_DIR } from "./workspace";

export const SUPPORTED_KINDS = ["channel", "module"] as const;
const FIRST_VERSION = "0.1.0";

export const CREATE_HELP = `Usage: plugin-sdk create <id> --kind channel|module [--dir <parent folder>] [--name "Display name"] [--tier FREE]

Creates the folder <dir>/<id> with a working plugin of that kind:
  package.json (manifest), src/service.ts (definePlugin), src/ui/ (register.tsx, texts.ts in
  pt-BR/en/es/ru, the kind's screens), rsbuild.config.cjs, test/ (conformance kit + own tests),
  README.md, CHANGELOG.md, tsconfig.json; a module also migrations/ (its own tables).

  <id>            kebab-case plugin id, e.g. channel-acme (a channel's connection type is the id
                  without "channel-")
  --kind <kind>   the plugin kind; supported now: ${SUPPORTED_KINDS.join(", ")}
  --dir <folder>  where to create the plugin folder (default: the current folder)
  --name <text>   display name (default: from the id)
  --tier <tier>   licence tier: ${PLUGIN_TIERS.join(", ")} (default FREE)

The module scaffold is a tenant's list of items at /<id without "module-"> with its own table,
routes, error codes, realtime pushes, a dashboard block and a count kept from the core's
ticket.closed events.
The channel scaffold is a generic webhook channel: settings { outboundUrl, secret }; inbound
POST /api/<type>/<token>/messages signed with the x-webhook-secret header; sends posted as JSON.
Refuses an existing non-empty folder. Exit code: 0 created, 1 failure, 2 bad usage.`;

interface Scaffold {
  kind: (typeof SUPPORTED_KINDS)[number];
  templates: string;
  platform(v: Vars): Record<string, unknown>;
}

interface Vars {
  ID: string;
  /** A module's shell path and route prefix: the id without "module-". */
  ROUTE: string;
  /** The id in capitals, for the module's error codes (ERR_<CODE>_…). */
  CODE: string;
  TYPE: string;
  NAME: string;
  TIER: PluginTier;
  VERSION: string;
  EXPORT_NAME: string;
}

/** What every scaffold's manifest starts with: id, kind, tier, the core API's major, the name in four languages. */
function identity(v: Vars, kind: Scaffold["kind"]) {
  return { id: v.ID, kind, tier: v.TIER, coreApi: `^${semver.major(CORE_API_VERSION)}.0.0`, displayName: { "pt-BR": v.NAME, en: v.NAME, es: v.NAME, ru: v.NAME } };
}

const SCAFFOLDS: Record<Scaffold["kind"], Scaffold> = {
  channel: {
    kind: "channel",
    templates: path.join(TEMPLATES_DIR, "channel"),
    platform: (v) => ({
      ...identity(v, "channel"),
      ui: { remoteEntry: "remoteEntry.js", exposes: ["register"] },
      channel: { capabilities: ["text"] },
      settingsSchema: {
        outboundUrl: { type: "string", pattern: "^https?://[^\\s]+$", max: 2000 },
        secret: { type: "string", min: 8, max: 200 },
      },
      permissions: [`connections:${v.TYPE}`],
    }),
  },
  module: {
    kind: "module",
    templates: path.join(TEMPLATES_DIR, "module"),
    platform: (v) => ({
      ...identity(v, "module"),
      icon: "api",
      ui: { remoteEntry: "remoteEntry.js", exposes: ["register"], routes: [v.ROUTE] },
      errors: {
        [`ERR_${v.CODE}_ITEM_NOT_FOUND`]: {
          status: 404,
          "pt-BR": { title: "Item não encontrado", detail: "O item não existe ou foi removido." },
          en: { title: "Item not found", detail: "The item does not exist or was removed." },
          es: { title: "Elemento no encontrado", detail: "El elemento no existe o fue eliminado." },
          ru: { title: "Элемент не найден", detail: "Элемент не существует или был удалён." },
        },
      },
    }),
  },
};

/** "channel-acme-hook" → "Acme Hook"; "module-acme" → "Acme". */
export function nameFromId(id: string): string {
  return id
    .replace(/^(channel|module)-/, "")
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** "channel-acme-hook" → "acmeHookChannelPlugin" (the exported object, camelCase of the id). */
export function exportNameFromId(id: string): string {
  const isChannel = id.startsWith("channel-");
  const words = id.replace(/^channel-/, "").split("-");
  let name = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  if (!/^[a-z]/.test(name)) name = `plugin${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return `${name}${isChannel ? "ChannelPlugin" : "Plugin"}`;
}

/** Fills `__TOKEN__` placeholders; a token the template names but Vars lacks is a bug of the template. */
export function render(text: string, vars: Vars, file: string): string {
  return text.replace(/__([A-Z][A-Z_]*[A-Z])__/g, (whole, key: string) => {
    if (!(key in vars)) throw new Error(`template ${file}: unknown placeholder ${whole}`);
    return vars[key as keyof Vars];
  });
}

function templateFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? path.join(rel, e.name) : e.name;
    if (e.isDirectory()) out.push(...templateFiles(dir, r));
    else if (e.name.endsWith(".tmpl")) out.push(r);
  }
  return out.sort();
}

/** The file a template becomes: drop ".tmpl"; "gitignore" is ".gitignore" (npm drops dotfiles from packages). */
function targetName(rel: string): string {
  const base = rel.slice(0, -".tmpl".length);
  return path.basename(base) === "gitignore" ? path.join(path.dirname(base), ".gitignore") : base;
}

export interface CreateOptions {
  id: string;
  kind: string;
  dir?: string;
  name?: string;
  tier?: string;
}

/** Checks the options (UsageError), writes the folder (CliError when it cannot), answers it and its files. */
export function createPlugin(opts: CreateOptions): { folder: string; files: string[] } {
  const { id } = opts;
  if (!PLUGIN_ID_PATTERN.test(id) || id.length > PLUGIN_ID_MAX) {
    throw new UsageError(`the id ${JSON.stringify(id)} must be kebab-case (lowercase letters and digits joined by single hyphens, e.g. channel-acme), at most ${PLUGIN_ID_MAX} characters`);
  }
  if (!(SUPPORTED_KINDS as readonly string[]).includes(opts.kind)) {
    const known = (PLUGIN_KINDS as readonly string[]).includes(opts.kind);
    throw new UsageError(`${known ? `kind ${JSON.stringify(opts.kind)} cannot be scaffolded yet` : `unknown kind ${JSON.stringify(opts.kind)}`}; supported kinds: ${SUPPORTED_KINDS.join(", ")}`);
  }
  const tier = (opts.tier ?? "FREE") as PluginTier;
  if (!(PLUGIN_TIERS as readonly string[]).includes(tier)) throw new UsageError(`unknown tier ${JSON.stringify(opts.tier)}; tiers: ${PLUGIN_TIERS.join(", ")}`);
  const name = (opts.name ?? nameFromId(id)).trim();
  if (!name) throw new UsageError("--name must not be empty");

  const scaffold = SCAFFOLDS[opts.kind as Scaffold["kind"]];
  const type = id.replace(/^channel-/, "");
  const route = id.replace(/^module-/, "");
  const code = route.toUpperCase().replace(/-/g, "_");
  const vars: Vars = { ID: id, TYPE: type, ROUTE: route, CODE: code, NAME: name, TIER: tier, VERSION: FIRST_VERSION, EXPORT_NAME: exportNameFromId(id) };

  const pkg = {
    name: id,
    version: FIRST_VERSION,
    private: true,
    description: opts.kind === "module" ? `${name}: a module for OpenAtende` : `${name}: a webhook channel for OpenAtende`,
    main: "src/service.ts",
    dependencies: { "@openatende/plugin-sdk": "*" },
    platform: scaffold.platform(vars),
  };
  const checked = validateManifest(pkg);
  if (!checked.ok) throw new UsageError(`the plugin would have an invalid manifest: ${checked.errors.join("; ")}`);

  const folder = path.resolve(opts.dir ?? ".", id);
  if (fs.existsSync(folder)) {
    if (!fs.statSync(folder).isDirectory()) throw new CliError(`${folder} exists and is not a folder`);
    if (fs.readdirSync(folder).length > 0) throw new CliError(`${folder} already exists and is not empty`);
  }

  const rendered = templateFiles(scaffold.templates).map((rel) => ({
    rel: targetName(rel),
    text: render(fs.readFileSync(path.join(scaffold.templates, rel), "utf8"), vars, rel),
  }));
  rendered.push({ rel: "package.json", text: `${JSON.stringify(pkg, null, 2)}\n` });
  try {
    for (const f of rendered) {
      const abs = path.join(folder, f.rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, f.text, { flag: "wx" });
    }
  } catch (err) {
    throw new CliError(`cannot write ${folder}: ${(err as Error).message}`);
  }
  return { folder, files: rendered.map((f) => f.rel.split(path.sep).join("/")).sort() };
}

export async function createCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { kind: { type: "string" }, dir: { type: "string" }, name: { type: "string" }, tier: { type: "string" } }, 1);
  if (args.flags.help) {
    console.log(CREATE_HELP);
    return 0;
  }
  const id = args.positionals[0];
  if (!id) throw new UsageError("missing <id>, e.g. plugin-sdk create channel-acme --kind channel");
  const kind = str(args.flags.kind);
  if (!kind) throw new UsageError(`missing --kind (supported kinds: ${SUPPORTED_KINDS.join(", ")})`);
  const { folder, files } = createPlugin({ id, kind, dir: str(args.flags.dir), name: str(args.flags.name), tier: str(args.flags.tier) });
  console.log(`created ${id} (${kind}) in ${folder}`);
  for (const f of files) console.log(`  ${f}`);
  const rel = path.relative(process.cwd(), folder) || ".";
  console.log(`\nnext: plugin-sdk validate ${rel} && plugin-sdk test ${rel} && plugin-sdk dev ${rel}`);
  return 0;
}
