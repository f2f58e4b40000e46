import type { Server as HttpServer } from "node:http";
import { Server as IoServer, Socket } from "socket.io";
import { createAdapter } from "@socket.io/redis-adapter";
import Redis from "ioredis";
import type { ServiceSchema } from "moleculer";
import { call, defineService } from "../bus/call";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { verifyAccessToken } from "../auth/tokens";
import { readSessionState } from "../auth/session-store";
import { viewerRooms } from "@openatende/contracts/visibility";
import { RealtimePush, adminOnlyRoom, rooms } from "./push";
import type { ErrorCode } from "../errors/codes";

/**
 * Client settings the shell uses (spec §7, §9): websocket then polling, 10 reconnection
 * attempts, 5–10 s between them, 20 s connection timeout. Served to the shell by
 * GET /api/realtime/config so it is written once.
 */
export const SOCKET_CLIENT_OPTIONS = {
  path: "/socket.io",
  transports: ["websocket", "polling"],
  reconnection: true,
  reconnectionAttempts: 10,
  reconnectionDelay: 5000,
  reconnectionDelayMax: 10000,
  timeout: 20000,
} as const;

interface SocketUser {
  id: number;
  tenantId: number;
  profile: string;
  sessionId: string;
}

/**
 * socket.io in the gateway, on the API's own HTTP server. A socket authenticates with the
 * access token and session id (handshake `auth`), then joins its tenant's rooms: the tenant,
 * admins (admins and supervisors), its user and each of its queues. Services push with
 * `pushRealtime(ctx, …)`; in cluster mode the Redis adapter carries an emit to the sockets of
 * every gateway node.
 */
export function createRealtimeService(deps: CoreDeps): ServiceSchema {
  let io: IoServer | undefined;
  let pub: Redis | undefined;
  let sub: Redis | undefined;

  async function authenticate(socket: Socket): Promise<SocketUser> {
    const auth = (socket.handshake.auth ?? {}) as { token?: string; sessionId?: string };
    const token = auth.token ?? (socket.handshake.query.token as string | undefined);
    const sessionId = auth.sessionId ?? (socket.handshake.query.sessionId as string | undefined);
    if (!token || !sessionId) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { data: { code: "ERR_SESSION_REQUIRED" } });
    const v = verifyAccessToken(token, deps.config.jwtSecret);
    if (!v.ok) {
      const code = v.reason === "expired" ? "ERR_TOKEN_EXPIRED" : "ERR_TOKEN_INVALID";
      throw Object.assign(new Error(code), { data: { code } });
    }
    if (v.claims.sid !== sessionId) throw Object.assign(new Error("ERR_TOKEN_INVALID"), { data: { code: "ERR_TOKEN_INVALID" } });
    const state = await readSessionState(deps.redis(), sessionId).catch(() => undefined);
    if (state && !state.active) throw Object.assign(new Error(state.code), { data: { code: state.code as ErrorCode } });
    return { id: v.claims.sub, tenantId: v.claims.tid, profile: v.claims.prf, sessionId };
  }

  return defineService({
    name: "realtime",
    dependencies: ["api"],
    settings: { rest: "/" },
    events: {
      "realtime.push"(ctx: Ctx<RealtimePush>) {
        if (!io) return;
        const { rooms: targets, event, payload, except } = ctx.params;
        (except?.length ? io.to(targets).except(except) : io.to(targets)).emit(event, payload);
      },
      /**
       * A tenant setting changed: its users' shells read the settings again at once (menu,
       * wallpaper, list limit…). Every gateway node hears the broadcast, so each tells its own
       * sockets only.
       */
      "settings.changed"(ctx: Ctx<{ tenantId: number; key: string }>) {
        if (!io || typeof ctx.params?.tenantId !== "number") return;
        io.local.to(rooms.tenant(ctx.params.tenantId)).emit(`${ctx.params.tenantId}:settings`, { key: ctx.params.key });
      },
      /** An ended session loses its sockets at once. */
      "auth.sessionEnded"(ctx: Ctx<{ sessionIds: string[] }>) {
        if (!io) return;
        for (const sid of ctx.params.sessionIds) io.in(`session:${sid}`).disconnectSockets(true);
      },
    },
    actions: {
      config: {
        rest: "GET /realtime/config",
        access: "public",
        handler() {
          return SOCKET_CLIENT_OPTIONS;
        },
      },
      /** Sockets connected to this node (tests, health). */
      stats: {
        visibility: "public",
        async handler() {
          return { sockets: io ? io.of("/").sockets.size : 0 };
        },
      },
    },
    async started() {
      const api = this.broker.getLocalService("api") as { server?: HttpServer } | undefined;
      if (!api?.server) {
        this.logger.warn("realtime: no local API server, socket.io not started");
        return;
      }
      io = new IoServer(api.server, {
        path: SOCKET_CLIENT_OPTIONS.path,
        serveClient: false,
        transports: ["websocket", "polling"],
        pingInterval: 25000,
        pingTimeout: 20000,
        cors: deps.config.corsOrigins.length ? { origin: deps.config.corsOrigins, credentials: true } : undefined,
      });
      if (deps.config.mode === "cluster") {
        pub = new Redis(deps.config.redisUrl);
        sub = pub.duplicate();
        // The installation's own channel: a tenant's room of another installation on the same Redis is not ours.
        io.adapter(createAdapter(pub, sub, { key: `${deps.redisPrefix()}io` }));
      }
      io.use((socket, next) => {
        authenticate(socket).then(
          (user) => {
            socket.data.user = user;
            next();
          },
          (err: Error & { data?: unknown }) => next(err),
        );
      });
      io.on("connection", async (socket) => {
        const u = socket.data.user as SocketUser;
        // The rooms of the tickets the user may see (spec §6), with the queues and the support
        // flag as they are now (the token's copy may be older).
        let viewer = { id: u.id, profile: u.profile, queues: [] as number[], isSupport: false };
        try {
          const me = await call(this.broker, "users.getInternal", { id: u.id });
          if (!me || me.tenantId !== u.tenantId) {
            socket.disconnect(true);
            return;
          }
          viewer = { ...viewer, queues: me.queues ?? [], isSupport: !!me.isSupport };
        } catch (err) {
          this.logger.warn(`realtime: could not read user ${u.id}: ${(err as Error).message}`);
        }
        const join = [...viewerRooms(viewer, u.tenantId), `session:${u.sessionId}`];
        if (["admin", "super"].includes(u.profile) || viewer.isSupport) join.push(adminOnlyRoom(u.tenantId));
        await socket.join(join);
        // A logout (or a login elsewhere) that landed while this socket was joining missed it:
        // read the session's state again now that the socket is in its session room.
        const state = await readSessionState(deps.redis(), u.sessionId).catch(() => undefined);
        if (state && !state.active) {
          socket.disconnect(true);
          return;
        }
        socket.emit("ready", { userId: u.id, tenantId: u.tenantId, rooms: join.length });
      });
    },
    async stopped() {
      if (io) {
        // Not io.close(): that would close the API's HTTP server, which the api service owns.
        io.disconnectSockets(true);
        io.engine.close();
        io = undefined;
      }
      pub?.disconnect();
      sub?.disconnect();
    },
  });
}
