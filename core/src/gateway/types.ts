import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Service } from "moleculer";
import type { ErrorCode } from "../errors/codes";
import type { AuthUser, Meta } from "../types";

/** A request as moleculer-web hands it to the gateway's hooks (only the members read here). */
export type Req = IncomingMessage & { $ctx?: { meta: Meta }; $action?: { name?: string; access?: string }; originalUrl?: string };

/** The gateway's methods: its own and the moleculer-web ones its code calls on `this`. */
export interface GatewayMethods {
  /** moleculer-web: the alias a URL and method resolve to, or false when no route matches. */
  resolveAlias(url: string, method?: string): { alias: { action?: string } } | false;
  /** moleculer-web's, wrapped (api.service) to mark stream routes. */
  routeHandler(ctx: unknown, route: unknown, req: Req & { $streamBody?: boolean }, res: ServerResponse, found?: { alias?: { type?: string } }): unknown;
  authenticate(ctx: { meta: Meta & { rawToken?: string; sessionHeader?: string } }, route: unknown, req: Req): Promise<AuthUser | null>;
  authorize(ctx: { meta: Meta }, route: unknown, req: Req): void;
  sessionState(ctx: unknown, sid: string): Promise<{ active: boolean; code?: ErrorCode }>;
}

/** Fields on the service instance: moleculer-web's HTTP server, and what `created` sets. */
export interface GatewayVars {
  /** Set by moleculer-web once its HTTP server is created (absent in middleware mode). */
  server?: Server;
  /** Plugins' UI folders, cached a few seconds; cleared when a plugin install changes. */
  uiDirs?: Map<string, { dir: string | null; at: number }>;
  /** moleculer-web calls this for a request no route matched (the static files). */
  serve?: (req: Req, res: ServerResponse, next: (err?: unknown) => void) => void;
}

/** moleculer-web's settings (port, routes, …), which the gateway's code does not read back. */
export type GatewaySettings = Record<string, unknown>;

/** The gateway service's `this`. */
export type GatewayService = Service<GatewaySettings> & GatewayMethods & GatewayVars;
