/**
 * Service packages: service groups that live in packages of their own (today the
 * marketplace) and run in the core's broker beside its own groups.
 *
 * The arrow points one way: such a package depends on `@openatende/core` (its public entry,
 * src/index.ts) and exports a `servicePackage`; the core never imports it. Which packages an
 * installation runs is the application's configuration, not the core's: the root
 * package.json names them,
 *
 *   "openatende": { "servicePackages": ["@openatende/marketplace"] }
 *
 * and the core loads them by that name when it builds a broker (createCore) or migrates
 * (bin/migrate.ts), as its plugin host finds plugins in the plugins/ folder. A package brings
 * its services (selected by SERVICES like the core's groups) and its migrations, which the
 * migrator runs after the core's own (db/migrator.ts collectMigrations).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "./deps";
import type { Migration } from "./db/migration";

export interface ServicePackage {
  /** The group SERVICES names it by ("all" includes it). */
  group: string;
  /** Its services, made for one broker. */
  services(deps: CoreDeps): ServiceSchema[];
  /** Its tables' migrations, in order; names are unique across the installation (they share one history). */
  migrations: Migration[];
}

/** The block of the root package.json that composes the installation. */
interface AppManifest {
  openatende?: { servicePackages?: unknown };
}

function isServicePackage(x: unknown): x is ServicePackage {
  const p = x as ServicePackage | undefined;
  return !!p && typeof p.group === "string" && typeof p.services === "function" && Array.isArray(p.migrations);
}

/** The packages the application at `rootDir` names, loaded (an unknown or malformed one is an error: the installation is misconfigured). */
export function loadServicePackages(rootDir: string): ServicePackage[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(rootDir, "package.json"), "utf8")) as AppManifest;
  const names = manifest.openatende?.servicePackages ?? [];
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) throw new Error(`${path.join(rootDir, "package.json")}: openatende.servicePackages must be a list of package names`);
  return (names as string[]).map((name) => {
    // Resolved from the application's root, where npm installed it (a workspace's link).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(require.resolve(name, { paths: [rootDir] })) as { servicePackage?: unknown };
    if (!isServicePackage(mod.servicePackage)) throw new Error(`${name} exports no servicePackage ({ group, services, migrations })`);
    return mod.servicePackage;
  });
}
