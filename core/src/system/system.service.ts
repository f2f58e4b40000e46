import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { exportCatalogue } from "../errors/catalogue";
import { VERSION } from "../version";
import { getGlobal } from "../settings/contract";

/** Version, front-end configuration, health and the error catalogue for the shell. */
export function createSystemService(deps: CoreDeps): ServiceSchema {
  const startedAt = Date.now();
  return {
    name: "system",
    settings: { rest: "/" },
    actions: {
      ping: {
        rest: "GET /ping",
        access: "public",
        handler() {
          return { ok: true };
        },
      },
      version: {
        rest: "GET /version",
        access: "user",
        handler() {
          return { version: VERSION, cacheMs: 43_200_000 };
        },
      },
      loadConfig: {
        rest: "GET /load-config",
        access: "public",
        async handler(ctx: Ctx) {
          const fe = (await getGlobal(ctx, "frontend")) ?? {};
          const tb = (await getGlobal(ctx, "typebot")) ?? {};
          return {
            applicationName: fe.name ?? "OpenAtende",
            logoUrl: fe.logo ?? null,
            recaptchaKey: fe.recaptchaKey ?? null,
            pageUrl: fe.pageUrl ?? deps.config.publicUrl,
            builderUrl: tb.builderUrl ?? null,
            videoList: fe.videoList ?? [],
            loginPosition: fe.loginPosition ?? "center",
            disableRegisterButton: fe.disableRegisterButton ?? false,
            termsUrl: fe.termsUrl ?? null,
          };
        },
      },
      health: {
        rest: "GET /health",
        access: "public",
        async handler(this: { broker: { nodeID: string } }) {
          let database = "ok";
          try {
            await deps.sequelize.query("SELECT 1");
          } catch {
            database = "down";
          }
          let redis = "ok";
          try {
            await deps.redis().ping();
          } catch {
            redis = "down";
          }
          return { status: database === "ok" ? "ok" : "degraded", database, redis, mode: deps.config.mode, nodeID: this.broker.nodeID, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) };
        },
      },
      errorCatalogue: {
        rest: "GET /errors/catalogue",
        access: "public",
        handler() {
          return exportCatalogue();
        },
      },
    },
  };
}
