import type { Context } from "moleculer";
import type { Locale } from "./errors/catalogue";
import type { Tier } from "./licence/tiers";

/** Stored profiles. "super" is the platform level that manages tenants. */
export const PROFILES = ["user", "supervisor", "admin", "super"] as const;
export type Profile = (typeof PROFILES)[number];

/** The authenticated caller, put in `ctx.meta.user` by the gateway. */
export interface AuthUser {
  id: number;
  tenantId: number;
  profile: Profile;
  isMaster: boolean;
  isSupport: boolean;
  sessionId: string;
}

export interface Meta {
  user?: AuthUser;
  locale?: Locale;
  ip?: string;
  userAgent?: string;
  /** Set by the gateway on the call it makes; the access middleware checks and clears it. */
  $api?: boolean;
  $statusCode?: number;
  $responseHeaders?: Record<string, string>;
  $responseType?: string;
  $location?: string;
  /** Request headers an action asked for with its `headers` option (lower-case names). */
  headers?: Record<string, string>;
}

export type Ctx<P = any> = Context<P, Meta>;

/** Admin status (spec §6): profile admin or super, or a support account. */
export function isAdmin(u: Pick<AuthUser, "profile" | "isSupport"> | undefined): boolean {
  return !!u && (u.profile === "admin" || u.profile === "super" || u.isSupport);
}

export function isSuper(u: Pick<AuthUser, "profile" | "isMaster"> | undefined): boolean {
  return !!u && (u.profile === "super" || u.isMaster);
}

/**
 * Who may call an action through the API.
 * - "public": anyone, no token;
 * - "user": any authenticated user (the default for routed actions);
 * - "supervisor": supervisors and admins;
 * - "admin": admin status (admin, super, support);
 * - "super": the platform level (super profile or master flag).
 */
export type Access = "public" | "user" | "supervisor" | "admin" | "super";

declare module "moleculer" {
  // Project-wide action options, checked by the access and licence middlewares.
  interface ActionSchema {
    access?: Access;
    tier?: Tier;
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
}
