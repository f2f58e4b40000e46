/**
 * The options an action declares beside its handler that the core's gateway and middlewares
 * read: who may call it through the API (`access`), the licence tier it needs (`tier`), the
 * resource its path parameter names (`resource`), whether other sites may call it (`cors`),
 * and the request headers it is handed (`headers`). They enter Moleculer's `ActionSchema` by
 * module augmentation here, in the SDK, so a plugin's service type-checks with them on its
 * own, outside this repository; the core imports them from here too.
 */
import type { PluginTier } from "./manifest";

/**
 * Who may call an action through the API.
 * - "public": anyone, no token;
 * - "user": any authenticated user (the default for routed actions);
 * - "supervisor": supervisors and admins;
 * - "admin": admin status (admin, super, support);
 * - "super": the platform level (super profile or master flag).
 */
export type Access = "public" | "user" | "supervisor" | "admin" | "super";

/** The project-wide action options, as a type of their own (also merged into ActionSchema below). */
export interface ActionOptions {
  access?: Access;
  tier?: PluginTier;
  /**
   * The resource a routed action with a path parameter works on (tenant-isolation test
   * fixtures); "own" when the parameter names something of the caller's own tenant (a
   * settings key), not another tenant's object; "public" when it is a public key such as
   * a web-chat widget token.
   */
  resource?: string;
  /**
   * "public": other sites may call it from a browser (CORS `*`, cross-origin resource
   * policy). Only for anonymous actions (`access: "public"`): no credentials are involved.
   */
  cors?: "public";
  /**
   * Request headers (lower-case names) the gateway hands the action in `ctx.meta.headers`,
   * e.g. a webhook's signature header. Only these: an action sees no other header.
   */
  headers?: string[];
}

declare module "moleculer" {
  // Checked by the core's access and licence middlewares and its gateway.
  interface ActionSchema extends ActionOptions {}
}
