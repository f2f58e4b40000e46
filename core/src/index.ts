/**
 * @openatende/core's public entry: what other packages of the platform may use. A service
 * package (the marketplace) builds on these and never reaches into core/src/... : anything it
 * needs beyond them is added here, on purpose. Plugins use @openatende/plugin-sdk, not this.
 *
 * Light on purpose: importing it loads no service and opens nothing (the broker factory,
 * createCore, is core/src/broker.ts, reached by the core's own entries and tests).
 */

// Composition: a package that runs its services in the core's broker (see service-packages.ts).
export type { ServicePackage } from "./service-packages";
export type { CoreDeps } from "./deps";
export type { Migration } from "./db/migration";

// Errors: the one business error and its catalogue of codes.
export { AppError, notFound, forbidden, invalid } from "./errors/app-error";
export { isErrorCode, statusOf } from "./errors/codes";
export type { ErrorCode } from "./errors/codes";

// The context of a call: the authenticated caller and the gateway's meta.
export { isAdmin, isSuper } from "./types";
export type { Access, AuthUser, Ctx, Meta, Profile } from "./types";

// Typed calls and events between services (each domain's contract.ts, merged in bus/actions.ts).
export { call, emit, broadcast } from "./bus/call";
export type { CoreActions, CoreEvents } from "./bus/call";
export type { CatalogueArchive, InstalledView } from "./plugins/contract";

// Data helpers every service uses the same way.
export { tenantDbMixin } from "./db/tenant-db.mixin";
export { containsCI } from "./db/search";

// The plugin host's loader (a package's tests check that what it publishes loads there).
export { loadPlugins } from "./plugins/loader";
export type { LoadOptions } from "./plugins/loader";
