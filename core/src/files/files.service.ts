import * as fs from "node:fs";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { resolveStored } from "./store";

/**
 * Tenant files (media of messages) under data/tenants/{tenantId}/. A path outside the
 * caller's tenant folder — another tenant's file, "..", an absolute path — answers 404.
 */
export function createFilesService(deps: CoreDeps): ServiceSchema {
  return {
    name: "files",
    settings: { rest: "/" },
    actions: {
      get: {
        rest: "GET /files/:path",
        access: "user",
        resource: "files",
        params: { path: { type: "string", min: 1, max: 500 } },
        async handler(ctx: Ctx<{ path: string }>) {
          const tenantId = ctx.meta.user!.tenantId;
          const full = resolveStored(deps.config.dataDir, tenantId, ctx.params.path);
          let stat: fs.Stats;
          try {
            stat = await fs.promises.stat(full);
          } catch {
            throw new AppError("ERR_NOT_FOUND", { field: "path" });
          }
          if (!stat.isFile()) throw new AppError("ERR_NOT_FOUND", { field: "path" });
          const name = full.split("/").pop()!.replace(/^[0-9a-f-]{36}-/, "");
          ctx.meta.$responseType = "application/octet-stream";
          ctx.meta.$responseHeaders = {
            "Content-Length": String(stat.size),
            "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
            "Cache-Control": "private, max-age=3600",
          };
          return fs.createReadStream(full);
        },
      },
    },
  };
}
