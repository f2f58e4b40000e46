/**
 * The generic part of the conformance kit: what every plugin, of any kind, must get right,
 * checked without services (a unit test). A kind's own kit (runChannelConformance) adds its
 * contract on top.
 *
 *   // plugins/module-acme/test/conformance.test.ts
 *   import { runPluginConformance } from "@openatende/plugin-sdk";
 *   import plugin from "../src/service";
 *   import { TEXTS } from "../src/ui/texts";
 *   runPluginConformance({ plugin, texts: TEXTS });
 *
 * The rules:
 * - a definePlugin() object whose manifest is valid and whose core API range this SDK meets;
 * - every HTTP route (an action with `rest`) says who may call it (`access`), validates what it
 *   is sent (`params`, for any route with a body or a path parameter), and asks no tier below
 *   the manifest's (the gateway refuses a tenant below the manifest's tier anyway: a lower one
 *   would only mislead a reader);
 * - a route's path is not one of the core's (it would be shadowed or shadow it);
 * - the core's events a plugin handles are known ones, received by the `platformEvent` action
 *   definePlugin made;
 * - a UI remote that exposes modules exposes `register` among them (the shell loads no other);
 * - its texts (when given) have the same keys, none empty, in pt-BR, en, es and ru.
 */
import { CORE_API_VERSION, isCoreApiCompatible, MANIFEST_LOCALES, PLUGIN_TIERS, validateManifest, toPackageJson } from "../manifest";
import { isDefinedPlugin, type DefinedPlugin } from "../define-plugin";
import { PLATFORM_EVENT_ACTION, PLATFORM_EVENT_NAMES } from "../core-api/contract";

export class PluginConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PluginConformanceError";
  }
}

/** First path segments the core serves (spec §7); a plugin route under one would meet the core's. */
export const CORE_ROUTE_PREFIXES = [
  "auth",
  "users",
  "tenants",
  "tickets",
  "messages",
  "messagesEdit",
  "messagesReaction",
  "forward-messages",
  "contacts",
  "queues",
  "tags",
  "quick-messages",
  "connections",
  "settings",
  "plugins",
  "marketplace",
  "files",
  "dashboard",
  "errors",
  "system",
  "licence",
  "gifs",
];

export interface PluginConformanceOptions {
  plugin: DefinedPlugin;
  /** The UI's texts by locale (the object given to runtime.addTranslations). */
  texts?: Partial<Record<string, Record<string, unknown>>>;
  name?: string;
}

type ActionDef = { rest?: unknown; access?: string; tier?: string; params?: unknown; visibility?: string };

function fail(msg: string): never {
  throw new PluginConformanceError(msg);
}

/** The routes of a plugin: [action, method, path] for each action with `rest`. */
export function routesOf(plugin: DefinedPlugin): Array<{ action: string; method: string; path: string; def: ActionDef }> {
  const actions = (plugin.schema.actions ?? {}) as Record<string, ActionDef | ((...a: unknown[]) => unknown)>;
  const base = String(((plugin.schema.settings ?? {}) as { rest?: string }).rest ?? "");
  const out: Array<{ action: string; method: string; path: string; def: ActionDef }> = [];
  for (const [name, a] of Object.entries(actions)) {
    if (typeof a !== "object" || !a || a.rest === undefined) continue;
    const rests = Array.isArray(a.rest) ? a.rest : [a.rest];
    for (const r of rests) {
      const [method, path] = typeof r === "string" ? (r.includes(" ") ? r.split(/\s+/, 2) : ["*", r]) : [String((r as { method?: string }).method ?? "*"), String((r as { path?: string }).path ?? "")];
      out.push({ action: name, method: method.toUpperCase(), path: `${base.replace(/\/$/, "")}/${path.replace(/^\//, "")}`, def: a });
    }
  }
  return out;
}

export function checkPluginDefinition(plugin: unknown): asserts plugin is DefinedPlugin {
  if (!isDefinedPlugin(plugin)) fail("the module must export the object definePlugin() returns");
  const again = validateManifest(toPackageJson(plugin.manifest));
  if (!again.ok) fail(`invalid manifest: ${again.errors.join("; ")}`);
  if (!isCoreApiCompatible(plugin.manifest.coreApi)) fail(`platform.coreApi ${plugin.manifest.coreApi} does not accept this SDK's core API ${CORE_API_VERSION}`);
  if (plugin.schema.name !== plugin.id || plugin.schema.version !== plugin.major) fail(`the service must be named ${plugin.id}, version ${plugin.major}`);
}

export function checkRoutes(plugin: DefinedPlugin): void {
  const problems: string[] = [];
  const manifestTier = PLUGIN_TIERS.indexOf(plugin.manifest.tier);
  for (const r of routesOf(plugin)) {
    const at = `route ${r.method} ${r.path} (action ${r.action})`;
    if (!r.def.access) problems.push(`${at} must say who may call it (access: "public" | "user" | "supervisor" | "admin" | "super")`);
    const needsParams = r.method !== "GET" && r.method !== "DELETE" ? true : r.path.includes("/:");
    if (needsParams && !r.def.params) problems.push(`${at} must validate what it is sent (params)`);
    if (r.def.tier && PLUGIN_TIERS.indexOf(r.def.tier as (typeof PLUGIN_TIERS)[number]) < manifestTier) problems.push(`${at} asks tier ${r.def.tier}, below the manifest's ${plugin.manifest.tier}`);
    const first = r.path.replace(/^\/+/, "").split("/")[0];
    if (CORE_ROUTE_PREFIXES.includes(first)) problems.push(`${at} is under /${first}, a path of the core`);
  }
  if (problems.length) fail(problems.join("\n"));
}

export function checkEvents(plugin: DefinedPlugin): void {
  const events = ((plugin.schema.metadata as { plugin?: { events?: string[] } } | undefined)?.plugin?.events ?? []) as string[];
  for (const e of events) if (!(PLATFORM_EVENT_NAMES as string[]).includes(e)) fail(`handles ${e}, which the core does not deliver`);
  const action = (plugin.schema.actions ?? {})[PLATFORM_EVENT_ACTION] as ActionDef | undefined;
  if (events.length && (!action || typeof action !== "object" || !action.params)) fail(`handles core events but has no validated ${PLATFORM_EVENT_ACTION} action: declare them with definePlugin({ platformEvents })`);
}

export function checkUi(plugin: DefinedPlugin): void {
  const ui = plugin.manifest.ui;
  // The shell loads a remote through its register module only: exposing others without it is a mistake.
  if (ui?.remoteEntry && ui.exposes.length && !ui.exposes.includes("register")) fail("platform.ui has a remote that does not expose register");
}

function flatKeys(o: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === "object" && !Array.isArray(v)) for (const [kk, vv] of flatKeys(v as Record<string, unknown>, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

export function checkTexts(texts: Partial<Record<string, Record<string, unknown>>>): void {
  const base = texts["pt-BR"];
  if (!base) fail("texts must have pt-BR (the default language)");
  const keys = flatKeys(base);
  const problems: string[] = [];
  for (const loc of MANIFEST_LOCALES) {
    const t = texts[loc];
    if (!t) {
      problems.push(`texts lack ${loc}`);
      continue;
    }
    const mine = flatKeys(t);
    for (const k of keys.keys()) if (!mine.has(k)) problems.push(`${loc} lacks ${k}`);
    for (const k of mine.keys()) if (!keys.has(k)) problems.push(`${loc} has ${k}, which pt-BR lacks`);
    for (const [k, v] of mine) if (typeof v !== "string" || !v.trim()) problems.push(`${loc}.${k} is empty or not a text`);
  }
  if (problems.length) fail(problems.join("\n"));
}

/** The generic kit as a jest suite (call it at the top level of a test file). */
export function runPluginConformance(opts: PluginConformanceOptions): void {
  const { plugin } = opts;
  describe(opts.name ?? `plugin conformance: ${isDefinedPlugin(plugin) ? plugin.id : "(not a definePlugin() object)"}`, () => {
    it("is a definePlugin() object with a valid manifest, a core API range this SDK meets, and its service named by it", () => checkPluginDefinition(plugin));
    it("declares access on every route, validates what routes are sent, asks no tier below the manifest's, and stays off the core's paths", () => checkRoutes(plugin));
    it("handles only the core's events, through the platformEvent action", () => checkEvents(plugin));
    it("exposes register from its UI remote", () => checkUi(plugin));
    // A plugin without texts of its own (no UI) has nothing to check here: the test is not declared.
    const texts = opts.texts;
    if (texts) it("has every text in pt-BR, en, es and ru, none empty", () => checkTexts(texts));
  });
}
