#!/usr/bin/env node
/**
 * The boundaries of the house, checked on every `npm test` (before jest; no service, a second
 * or two). `node scripts/check-boundaries.cjs` prints each violation with its rule and exits 1
 * when one is not in ALLOWED below.
 *
 * Rules (a violation names the file and what it reaches):
 *
 *   plugin-import     A plugin's source (plugins/<id>/src, tests excepted) imports only its own
 *                     package, the SDK (@openatende/plugin-sdk…), the contracts
 *                     (@openatende/contracts/…), a shared library (libs/<name>), node's modules
 *                     and npm packages; never core, config, the marketplace, the shell or
 *                     another plugin, by name or by path. A library's source (libs/<name>/src)
 *                     keeps the same rule (it may use another library, never a plugin): it is
 *                     how two plugins share one implementation (channel-waba and channel-360)
 *                     without one reaching into the other; the plugin's pack bundles it.
 *   sdk-import        The same for the SDK's and the contracts' sources: they stand alone (the
 *                     SDK may import contracts; contracts import nothing but themselves).
 *   core-internal     The marketplace and the shell never import core's files
 *                     (@openatende/core/src/… or a path into core/): only core's entry.
 *   domain-import     A file of core/src/<a>/ imports another domain <b> only through <b>'s
 *                     public files: contract.ts or *-contract.ts (its actions, events and the
 *                     types and constants others need), index.ts, model.ts / models.ts (row
 *                     types; see define-model), and the pure rule modules PUBLIC lists.
 *                     SHARED folders and the files directly in core/src are everyone's;
 *                     COMPOSITION files (they build the process, or list every domain's
 *                     migrations) may import anything of core.
 *   define-model      A `define*(sequelize…)` model factory is imported only inside its domain:
 *                     another domain reads that table through the owner's actions.
 *   foreign-table     Raw SQL of a domain names only its own tables
 *                     (FROM|JOIN|UPDATE|INTO <table>); the owner of a table is the domain whose
 *                     model declares its tableName (or, with no model, whose migration creates
 *                     it). Migrations are history and exempt; the row-lock helper
 *                     (core/src/db/row-locks.ts, lockTenantRow / lockUserRow) is the one named
 *                     exception.
 *   package-cycle     Workspace packages form no cycle, counting both package.json
 *                     dependencies and the imports of their sources.
 *
 * Tests, their support files (test/ folders) and benches are outside the import rules: they
 * exercise the whole system (plugin tests import @openatende/core/testkit).
 *   size              A hand-written source file has at most MAX_LINES lines (tests, test
 *                     support, benches, locale data, templates and built files excepted).
 */
const fs = require("node:fs");
const path = require("node:path");
const { builtinModules } = require("node:module");

const MAX_LINES = 400;

/** Workspace folders → package names (read from their package.json when present). */
const WORKSPACES = ["config", "contracts", "plugin-sdk", "core", "marketplace", "shell", "libs/*", "plugins/*"];

/** Folders of core/src every file may import in full (infrastructure, not a domain). */
const SHARED = ["db", "lib", "errors", "bus", "middlewares"];
/**
 * What builds the process (folders or files of core/src): they import anything of core, and
 * nothing imports them. Every other file directly in core/src (types.ts, deps.ts, version.ts)
 * is shared.
 */
const COMPOSITION = ["bin", "broker.ts", "seed.ts", "index.ts", "service-packages.ts", "db/migrations.ts"];

/**
 * Pure rule modules a domain publishes besides its contract, with why they are public.
 * (Files named contract.ts, *-contract.ts, index.ts, model.ts, models.ts are public anyway.)
 */
const PUBLIC = {
  licence: ["tiers.ts", "plans.ts", "document.ts"], // tier order, plan limits, CPF/CNPJ: rules other domains check
  realtime: ["push.ts"], // how any service pushes to the tenant's sockets
  files: ["store.ts"], // the tenant file store, shared by messages and channels
  auth: ["tokens.ts", "session-store.ts", "password.ts", "login-hours.ts"], // the gateway and realtime authenticate with them; users apply the password and login-hour rules
  plugins: ["node-watch.ts"], // the plugin nodes' liveness, run by the outbox service on its own node
  platform: ["leader.ts", "views.ts"], // the one-node lease, and the core API's shapes of rows: chatbots deliver to plugins with both, as the core's events do
};

/** The one place allowed to name another domain's table: the row locks. */
const LOCK_HELPER = "core/src/db/row-locks.ts";

/**
 * Known violations tolerated for a while (none today). An entry is the violation's text as
 * printed ("<rule> <file> → <what>", "size <file>"); a `*` in it stands for any characters but
 * a space. The list only shrinks: an entry that no longer matches is reported as stale. Adding
 * one needs a reason in a comment beside it and a step that removes it.
 */
const ALLOWED = [];

// ---------------------------------------------------------------------------------------------

const SOURCE_EXT = /\.(ts|tsx|cjs|mjs|js)$/;
const SIZE_EXT = /\.(ts|tsx|cjs|mjs|js|css)$/;
const SKIP_DIRS = new Set(["node_modules", "dist", ".git", "artifacts", "coverage"]);

const posix = (p) => p.split(path.sep).join("/");
/** Tests, their support files and benches: they exercise the whole system and may reach anywhere. */
const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)(test|tests|__tests__|bench)\//.test(rel);

function walk(root, dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (SKIP_DIRS.has(e.name)) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, rel, out);
    else if (SIZE_EXT.test(e.name)) out.push(rel);
  }
  return out;
}

/** The workspace packages: [{ dir, name, deps }] (deps: names of other workspace packages). */
function packagesOf(root) {
  const dirs = [];
  for (const w of WORKSPACES) {
    if (w.endsWith("/*")) {
      const base = w.slice(0, -2);
      let list = [];
      try {
        list = fs.readdirSync(path.join(root, base), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${base}/${e.name}`);
      } catch {
        /* no such folder */
      }
      dirs.push(...list.filter((d) => fs.existsSync(path.join(root, d, "package.json"))));
    } else if (fs.existsSync(path.join(root, w, "package.json"))) dirs.push(w);
  }
  const pkgs = dirs.map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8"));
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
    return { dir, name: pkg.name || dir, deps };
  });
  const names = new Set(pkgs.map((p) => p.name));
  for (const p of pkgs) p.deps = p.deps.filter((d) => names.has(d) && d !== p.name);
  return pkgs;
}

/** Comments out, strings kept (imports and SQL live in strings). Good enough for our sources. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every module specifier the file imports, with its line: import/export from, import(), require(). */
function importsOf(text) {
  const out = [];
  const re = /(?:\bimport\s+(?:type\s+)?(?:[\w*\s{},$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*)["'`]([^"'`\n]+)["'`]/g;
  let m;
  while ((m = re.exec(text))) out.push({ spec: m[1], line: text.slice(0, m.index).split("\n").length, text: m[0] });
  return out;
}

/** Named imports of a statement (`import { a, b as c, type D } from`). */
function namedImports(statement) {
  const m = /\{([^}]*)\}/.exec(statement);
  if (!m) return [];
  return m[1]
    .split(",")
    .map((s) => s.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0].trim())
    .filter(Boolean);
}

function isBareNpm(spec) {
  return !spec.startsWith(".") && !spec.startsWith("/");
}
function isBuiltin(spec) {
  return spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]);
}
function packageNameOf(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The package folder holding a repository-relative path, or null. */
function packageAt(pkgs, rel) {
  let best = null;
  for (const p of pkgs) if ((rel === p.dir || rel.startsWith(`${p.dir}/`)) && (!best || p.dir.length > best.dir.length)) best = p;
  return best;
}

/** core/src/<domain>/… → domain; a file directly in core/src → its file name; else null. */
function coreUnit(rel) {
  const m = /^core\/src\/([^/]+)(\/.*)?$/.exec(rel);
  if (!m) return null;
  return { unit: m[1], inside: m[2] ? m[2].slice(1) : null };
}

/** Resolves a relative specifier to a repository-relative path without extension guessing. */
function resolveRel(fileRel, spec) {
  return posix(path.normalize(path.join(path.dirname(fileRel), spec)));
}

function isPublicOf(domain, inside) {
  if (inside === null || inside === "" || inside === "index") return true;
  const file = inside.replace(/\.(ts|tsx|js|cjs)$/, "");
  if (file.includes("/")) return false;
  if (["contract", "index", "model", "models"].includes(file) || file.endsWith("-contract")) return true;
  return (PUBLIC[domain] || []).some((f) => f.replace(/\.ts$/, "") === file);
}

/** Table → owning domain: the model's tableName, else the migration that creates it. */
function tableOwners(root, files) {
  const owners = new Map();
  const fromMigrations = new Map();
  for (const rel of files) {
    const u = coreUnit(rel);
    if (!u || !SOURCE_EXT.test(rel) || isTest(rel)) continue;
    const text = fs.readFileSync(path.join(root, rel), "utf8");
    for (const m of text.matchAll(/tableName:\s*["'`](\w+)["'`]/g)) owners.set(m[1], u.unit);
    if (/\/migrations\//.test(rel)) for (const m of text.matchAll(/createTable\(\s*["'`](\w+)["'`]/g)) fromMigrations.set(m[1], u.unit);
  }
  for (const [t, d] of fromMigrations) if (!owners.has(t)) owners.set(t, d);
  return owners;
}

/** The model factories: define*(sequelize…) exported by a domain file → that domain. */
function modelFactories(root, files) {
  const defs = new Map();
  for (const rel of files) {
    const u = coreUnit(rel);
    if (!u || !u.inside || !SOURCE_EXT.test(rel) || isTest(rel)) continue;
    const text = fs.readFileSync(path.join(root, rel), "utf8");
    for (const m of text.matchAll(/export\s+(?:async\s+)?function\s+(define\w+)\s*(?:<[^>]*>)?\(\s*sequelize\b/g)) defs.set(m[1], u.unit);
  }
  return defs;
}

/** Every violation of the tree at `root`: [{ rule, file, line, what, text }]. */
function check(root) {
  const pkgs = packagesOf(root);
  const byName = new Map(pkgs.map((p) => [p.name, p]));
  const files = pkgs.flatMap((p) => walk(root, p.dir, [])).filter((f, i, all) => all.indexOf(f) === i);
  const owners = tableOwners(root, files);
  const factories = modelFactories(root, files);
  const violations = [];
  const add = (rule, file, line, what) => violations.push({ rule, file, line, what, text: what ? `${rule} ${file} → ${what}` : `${rule} ${file}` });
  const edges = new Map(pkgs.map((p) => [p.name, new Set(p.deps)]));
  const sdk = byName.get("@openatende/plugin-sdk");
  const contracts = byName.get("@openatende/contracts");
  const core = byName.get("@openatende/core");

  for (const rel of files) {
    const text = fs.readFileSync(path.join(root, rel), "utf8");
    const pkg = packageAt(pkgs, rel);
    const test = isTest(rel);
    const generated = /(^|\/)(locales|templates|bench|fixtures|fixtures-plugins)\//.test(rel) || /\.d\.ts$/.test(rel);
    if (!test && !generated && text.split("\n").length - (text.endsWith("\n") ? 1 : 0) > MAX_LINES) add("size", rel, 0, "");
    if (!SOURCE_EXT.test(rel) || !pkg) continue;
    const code = stripComments(text);
    const inPlugin = (pkg.dir.startsWith("plugins/") || pkg.dir.startsWith("libs/")) && rel.startsWith(`${pkg.dir}/src/`);
    const inSdk = (pkg === sdk || pkg === contracts) && rel.startsWith(`${pkg.dir}/src/`);
    const unit = pkg === core ? coreUnit(rel) : null;

    for (const imp of importsOf(code)) {
      const spec = imp.spec;
      if (isBuiltin(spec)) continue;
      // What the import reaches: a workspace package (by name or by a path into it), or npm.
      let target = null;
      let targetRel = null;
      if (isBareNpm(spec)) target = byName.get(packageNameOf(spec)) || null;
      else {
        targetRel = resolveRel(rel, spec);
        target = packageAt(pkgs, targetRel);
      }
      const outward = target && target !== pkg;
      if (!test && outward) edges.get(pkg.name).add(target.name);

      // npm: neither a workspace package nor a path. stray: a path that leaves every package.
      const npm = !target && targetRel === null;
      const stray = !target && targetRel !== null;
      const library = target && target.dir.startsWith("libs/");
      if (inPlugin && !test && !(npm || library || target === pkg || target === sdk || target === contracts)) add("plugin-import", rel, imp.line, spec);
      if (inSdk && !test) {
        const ok = target === pkg || (pkg === sdk && (npm || target === contracts));
        if (!ok || stray) add("sdk-import", rel, imp.line, spec);
      }
      if ((pkg.name === "@openatende/marketplace" || pkg.name === "@openatende/shell") && target === core && !test) {
        if (targetRel !== null || /^@openatende\/core\/(src|test)\//.test(spec)) add("core-internal", rel, imp.line, spec);
      }
      if (test) continue;
      const targetUnit = targetRel ? coreUnit(targetRel) : null;
      const composition = unit && COMPOSITION.some((c) => rel === `core/src/${c}` || rel.startsWith(`core/src/${c}/`));
      // Model factories stay in their domain.
      for (const n of namedImports(imp.text)) {
        const home = factories.get(n);
        if (home && target === core && !composition && !(unit && unit.unit === home)) add("define-model", rel, imp.line, `${n} (${home})`);
      }
      // Inside core: another domain only through its public files.
      if (unit && targetUnit && unit.unit !== targetUnit.unit && !composition && !SHARED.includes(targetUnit.unit)) {
        const to = targetUnit.unit;
        if (targetUnit.inside !== null) {
          if (!isPublicOf(to, targetUnit.inside)) add("domain-import", rel, imp.line, `${to}/${targetUnit.inside.replace(/\.(ts|tsx)$/, "")}`);
        } else if (!fs.existsSync(path.join(root, "core/src", to)) || !fs.statSync(path.join(root, "core/src", to)).isDirectory()) {
          // A file directly in core/src: the shared ones are everyone's, a composition file is no one's.
          if (COMPOSITION.includes(`${to.replace(/\.ts$/, "")}.ts`)) add("domain-import", rel, imp.line, to);
        }
      }
    }

    if (unit && !test && !/\/migrations\//.test(rel) && rel !== LOCK_HELPER) {
      const re = /\b(FROM|JOIN|UPDATE|INTO)\s+[`"]?(\w+)[`"]?/g;
      for (const m of code.matchAll(re)) {
        const owner = owners.get(m[2]);
        if (owner && owner !== unit.unit) add("foreign-table", rel, code.slice(0, m.index).split("\n").length, `${m[1]} ${m[2]} (${owner})`);
      }
    }
  }

  for (const cycle of cyclesOf(edges)) add("package-cycle", cycle.join(" → "), 0, "");
  return dedupe(violations);
}

function dedupe(violations) {
  const seen = new Set();
  return violations.filter((v) => (seen.has(v.text) ? false : (seen.add(v.text), true)));
}

/** The elementary cycles of a small graph, each once, starting at its smallest name. */
function cyclesOf(edges) {
  const found = new Map();
  const names = [...edges.keys()].sort();
  for (const start of names) {
    const stack = [[start, [start]]];
    while (stack.length) {
      const [node, trail] = stack.pop();
      for (const next of edges.get(node) || []) {
        if (next === start) {
          const cycle = [...trail, start];
          const key = [...trail].sort().join(",");
          if (!found.has(key) && trail.every((n) => n >= start)) found.set(key, cycle);
        } else if (!trail.includes(next) && next > start) stack.push([next, [...trail, next]]);
      }
    }
  }
  return [...found.values()];
}

/** Splits violations into those ALLOWED lists and the rest; stale: entries that match nothing. */
function judge(violations, allowed = ALLOWED) {
  const patterns = allowed.map((a) => ({ a, re: new RegExp(`^${a.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^ ]*")}$`) }));
  const allows = (v) => patterns.some((p) => p.re.test(v.text));
  const failing = violations.filter((v) => !allows(v));
  const tolerated = violations.filter(allows);
  const stale = patterns.filter((p) => !violations.some((v) => p.re.test(v.text))).map((p) => p.a);
  return { failing, tolerated, stale };
}

module.exports = { check, judge, cyclesOf, importsOf, stripComments, MAX_LINES, ALLOWED, PUBLIC };

if (require.main === module) {
  const root = path.resolve(process.argv[2] || path.join(__dirname, ".."));
  const t0 = Date.now();
  const { failing, tolerated, stale } = judge(check(root));
  for (const v of failing) console.log(`✗ ${v.text}${v.line ? ` (line ${v.line})` : ""}`);
  if (tolerated.length) console.log(`${tolerated.length} known violation(s) allowed for now (ALLOWED in scripts/check-boundaries.cjs)`);
  for (const s of stale) console.log(`note: allowed but no longer found, remove it from ALLOWED: ${s}`);
  console.log(`boundaries: ${failing.length ? `${failing.length} violation(s)` : "ok"} (${Date.now() - t0} ms)`);
  process.exit(failing.length ? 1 : 0);
}
