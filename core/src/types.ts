import type { Context } from "moleculer";
import type { Locale } from "./errors/catalogue";

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

/** The gateway's action options (`access`, `tier`, `resource`, `cors`, `headers`) are declared in the SDK, where plugins read them. */
export type { Access, ActionOptions } from "@openatende/plugin-sdk";
