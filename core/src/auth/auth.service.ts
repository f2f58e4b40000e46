import { Op } from "sequelize";
import { randomUUID } from "node:crypto";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import { uiText, resolveLocale } from "../errors/catalogue";
import type { CoreDeps } from "../deps";
import type { Ctx, Profile } from "../types";
import type { UserRow } from "../users/contract";
import { checkPassword, DUMMY_HASH, hashPassword, isStrongPassword } from "./password";
import { withinLoginHours } from "./login-hours";
import { randomToken, sha256, signAccessToken, verifyAccessToken } from "./tokens";
import { hit } from "../lib/rate-limit";
import { lockUserRow } from "../db/row-locks";
import { broadcast, call, defineService } from "../bus/call";
import { defineAuthModels } from "./model";
import { getGlobal } from "../settings/contract";
import { SessionState, writeSessionState } from "./session-store";
import { normalisePhone } from "../users/contract";

/** Why a session ended, and the code a request carrying it gets. */
export const REVOKE_CODES: Record<string, ErrorCode> = {
  logged_elsewhere: "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE",
  user_inactive: "ERR_USER_INACTIVE",
  user_deleted: "ERR_USER_DELETED",
  tenant_inactive: "ERR_TENANT_INACTIVE",
};
export const revokeCode = (reason: string | null | undefined): ErrorCode => (reason && REVOKE_CODES[reason]) || "ERR_SESSION_EXPIRED";

export const RESET_TOKEN_TTL_MS = 5 * 60 * 1000;

type LoginParams = { email?: string; phoneNumber?: string; password: string };

/** The auth service's methods (its `this` in handlers). */
interface AuthMethods {
  /** Counts a try against the login rate limit; ERR_RATE_LIMITED past it (Redis down: no limit). */
  limit(ctx: Ctx, key: string): Promise<void>;
  /** Opens the user's one session (ending the older ones) and signs its tokens. */
  openSession(ctx: Ctx, user: UserRow): Promise<{ sessionId: string; token: string; refreshToken: string }>;
  /** Ends the open sessions matching `where`. */
  revoke(where: Record<string | symbol, unknown>, reason: string): Promise<{ revoked: number }>;
  mirror(sid: string, state: SessionState, ttl: number): Promise<void>;
}

/**
 * Login, sessions, token refresh, logout and password reset. One active session per user:
 * a login elsewhere ends the older one, whose next request answers
 * ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE.
 */
export function createAuthService(deps: CoreDeps): ServiceSchema {
  const { Session: SessionModel, PasswordReset: ResetModel } = defineAuthModels(deps.sequelize);
  const cfg = deps.config;

  return defineService<AuthMethods>({
    name: "auth",
    settings: { rest: "/" },
    actions: {
      login: {
        rest: "POST /auth/login",
        access: "public",
        params: {
          email: { type: "string", optional: true, max: 190 },
          phoneNumber: { type: "string", optional: true, max: 30 },
          password: { type: "string", min: 1, max: 200 },
        },
        async handler(ctx: Ctx<LoginParams>) {
          const email = ctx.params.email?.trim().toLowerCase() || undefined;
          const phoneNumber = ctx.params.phoneNumber?.trim() || undefined;
          if (!email && !phoneNumber) throw new AppError("ERR_EMAIL_OR_PHONE_REQUIRED", { field: "email" });
          // One counter per identifier, whatever its spelling: the phone number as its digits.
          const identifier = email ?? `phone:${normalisePhone(phoneNumber) ?? phoneNumber}`;
          await this.limit(ctx, `login:${ctx.meta.ip ?? "?"}:${identifier}`);

          const user = await call(ctx, "users.findForLogin", email ? { email } : { phoneNumber });
          const passwordOk = await checkPassword(ctx.params.password, user?.passwordHash ?? DUMMY_HASH);
          if (!user) throw new AppError("ERR_USER_NOT_FOUND");
          if (!passwordOk) throw new AppError("ERR_INVALID_CREDENTIALS");
          if (user.deletedAt) throw new AppError("ERR_USER_DELETED");
          if (!user.active) throw new AppError("ERR_USER_INACTIVE");

          const tenant = await call(ctx, "tenants.getInternal", { id: user.tenantId });
          if (!tenant || tenant.status === "deleted") throw new AppError("ERR_TENANT_NOT_FOUND");
          if (tenant.status !== "active") throw new AppError("ERR_TENANT_INACTIVE");
          if (user.limitLoginHours && !withinLoginHours(user.loginHours ?? {}, new Date(), tenant.timezone)) {
            throw new AppError("ERR_LOGIN_OUTSIDE_HOURS");
          }

          const session = await this.openSession(ctx, user);
          await call(ctx, "users.touchLogin", { id: user.id });
          this.logger.info(`login user=${user.id} tenant=${user.tenantId} session=${session.sessionId}`);
          return {
            token: session.token,
            refreshToken: session.refreshToken,
            expiresIn: cfg.accessTokenTtlSeconds,
            sessionId: session.sessionId,
            username: user.name,
            profile: user.profile,
            userId: user.id,
            tenantId: user.tenantId,
            isMaster: !!user.isMaster,
            queues: user.queues,
            configs: user.configs ?? {},
            image: user.image,
            user: {
              id: user.id,
              name: user.name,
              email: user.email,
              profile: user.profile,
              configs: user.configs ?? {},
              lgpdAccepted: user.lgpdAccepted,
            },
            tenant: {
              id: tenant.id,
              name: tenant.name,
              termsAccepted: !!tenant.termsAccepted,
              termsAcceptedAt: tenant.termsAcceptedAt,
            },
          };
        },
      },

      refresh: {
        rest: "POST /auth/refresh_token",
        access: "public",
        params: {
          userId: { type: "number", integer: true, positive: true, convert: true },
          refreshToken: { type: "string", optional: true, max: 200 },
        },
        async handler(ctx: Ctx<{ userId: number; refreshToken?: string }> & { meta: { rawToken?: string; sessionHeader?: string } }) {
          const sessionId = ctx.meta.sessionHeader;
          if (!sessionId) throw new AppError("ERR_SESSION_REQUIRED");
          const s = await SessionModel.findByPk(sessionId);
          if (!s || s.get("userId") !== ctx.params.userId) throw new AppError("ERR_SESSION_EXPIRED");
          // Proof of possession: the refresh token, or the (possibly expired) access token of this session.
          let proven = false;
          if (ctx.params.refreshToken) proven = sha256(ctx.params.refreshToken) === s.get("refreshHash");
          if (!proven && ctx.meta.rawToken) {
            const v = verifyAccessToken(ctx.meta.rawToken, cfg.jwtSecret);
            const claims = v.ok ? v.claims : v.claims;
            proven = !!claims && claims.sid === sessionId && claims.sub === ctx.params.userId;
          }
          if (!proven) throw new AppError("ERR_TOKEN_INVALID");
          if (s.get("revokedAt")) throw new AppError(revokeCode(s.get("revokedReason") as string | null));
          if ((s.get("expiresAt") as Date).getTime() <= Date.now()) throw new AppError("ERR_SESSION_EXPIRED");
          const user = await call(ctx, "users.getInternal", { id: ctx.params.userId });
          if (!user || user.deletedAt) throw new AppError("ERR_USER_DELETED");
          if (!user.active) throw new AppError("ERR_USER_INACTIVE");
          const token = signAccessToken(
            { sub: user.id, tid: user.tenantId, sid: sessionId, prf: user.profile, mst: !!user.isMaster, sup: !!user.isSupport },
            cfg.jwtSecret,
            cfg.accessTokenTtlSeconds,
          );
          return { token, sessionId, expiresIn: cfg.accessTokenTtlSeconds };
        },
      },

      logout: {
        rest: "POST /auth/logout",
        access: "user",
        async handler(ctx: Ctx) {
          const u = ctx.meta.user!;
          await this.revoke({ id: u.sessionId }, "logout");
          await call(ctx, "users.setStatus", { id: u.id, status: "offline" });
          return { ok: true };
        },
      },

      forgotPassword: {
        rest: "POST /auth/esquecisenha",
        access: "public",
        // Trimmed and lower-cased like the login's e-mail, so " Ana@X.com " finds ana@x.com.
        params: { email: { type: "email", normalize: true, max: 190 } },
        async handler(ctx: Ctx<{ email: string }>) {
          const email = ctx.params.email.trim().toLowerCase();
          await this.limit(ctx, `forgot:${ctx.meta.ip ?? "?"}:${email}`);
          const smtp = await getGlobal(ctx, "smtp");
          if (!smtp || !(smtp as { host?: string }).host) throw new AppError("ERR_MAIL_NOT_CONFIGURED");
          const user = await call(ctx, "users.findForLogin", { email });
          // The answer is the same whether or not the address exists.
          if (!user || user.deletedAt || !user.active) return { ok: true };
          const token = randomToken(32);
          await ResetModel.create({
            tenantId: user.tenantId,
            userId: user.id,
            tokenHash: sha256(token),
            expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
          });
          const locale = resolveLocale((user.configs?.language as string | undefined) ?? ctx.meta.locale);
          const link = `${cfg.publicUrl}/#/redefining?token=${encodeURIComponent(token)}`;
          await call(ctx, "mailer.send", {
            to: user.email,
            subject: uiText("resetMailSubject", locale).toString(),
            text: uiText("resetMailText", locale, { name: user.name, link }),
            html: uiText("resetMailHtml", locale, { name: escapeHtml(user.name), link: escapeHtml(link) }),
          });
          return { ok: true };
        },
      },

      resetPassword: {
        rest: "POST /auth/redefinirsenha",
        access: "public",
        params: {
          token: { type: "string", min: 10, max: 200 },
          password: { type: "string", max: 200 },
          confirmPassword: { type: "string", max: 200 },
        },
        async handler(ctx: Ctx<{ token: string; password: string; confirmPassword: string }>) {
          await this.limit(ctx, `reset:${ctx.meta.ip ?? "?"}`);
          const { token, password, confirmPassword } = ctx.params;
          if (!isStrongPassword(password)) throw new AppError("ERR_PASSWORD_WEAK", { field: "password" });
          if (!confirmPassword || password !== confirmPassword) throw new AppError("ERR_PASSWORD_MISMATCH", { field: "confirmPassword" });
          const row = await ResetModel.findOne({ where: { tokenHash: sha256(token) } });
          if (!row || row.get("usedAt")) throw new AppError("ERR_RESET_TOKEN_INVALID");
          if ((row.get("expiresAt") as Date).getTime() <= Date.now()) throw new AppError("ERR_RESET_TOKEN_EXPIRED");
          const passwordHash = await hashPassword(password, cfg.bcryptRounds);
          const userId = row.get("userId") as number;
          await deps.sequelize.transaction(async (transaction) => {
            // Single use: only the request that flips usedAt from NULL wins.
            const [n] = await ResetModel.update({ usedAt: new Date() }, { where: { id: row.get("id") as number, usedAt: null }, transaction });
            if (n !== 1) throw new AppError("ERR_RESET_TOKEN_INVALID");
            await ResetModel.update({ usedAt: new Date() }, { where: { userId, usedAt: null }, transaction });
          });
          await call(ctx, "users.setPasswordHash", { id: userId, passwordHash });
          await this.revoke({ userId }, "password_reset");
          return { ok: true };
        },
      },

      me: {
        rest: "GET /auth/me",
        access: "user",
        async handler(ctx: Ctx) {
          const u = ctx.meta.user!;
          const user = await call(ctx, "users.getInternal", { id: u.id });
          if (!user) throw new AppError("ERR_USER_NOT_FOUND");
          return {
            userId: user.id,
            username: user.name,
            email: user.email,
            profile: user.profile,
            tenantId: user.tenantId,
            isMaster: !!user.isMaster,
            queues: user.queues,
            configs: user.configs,
            image: user.image,
            sessionId: u.sessionId,
          };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      sessionState: {
        visibility: "public",
        params: { sessionId: "string" },
        async handler(ctx: Ctx<{ sessionId: string }>) {
          const s = await SessionModel.findByPk(ctx.params.sessionId);
          if (!s) return { active: false, code: "ERR_SESSION_EXPIRED" };
          const expiresAt = (s.get("expiresAt") as Date).getTime();
          let state: SessionState = { active: true };
          if (s.get("revokedAt")) state = { active: false, code: revokeCode(s.get("revokedReason") as string | null) };
          else if (expiresAt <= Date.now()) state = { active: false, code: "ERR_SESSION_EXPIRED" };
          await this.mirror(ctx.params.sessionId, state, Math.max(60, (expiresAt - Date.now()) / 1000));
          return state;
        },
      },
      revokeSession: {
        visibility: "public",
        params: { sessionId: "string", reason: "string" },
        async handler(ctx: Ctx<{ sessionId: string; reason: string }>) {
          return this.revoke({ id: ctx.params.sessionId }, ctx.params.reason);
        },
      },
      revokeUserSessions: {
        visibility: "public",
        params: { userId: "number", reason: "string", exceptSessionId: { type: "string", optional: true } },
        async handler(ctx: Ctx<{ userId: number; reason: string; exceptSessionId?: string }>) {
          const where: Record<string | symbol, unknown> = { userId: ctx.params.userId };
          if (ctx.params.exceptSessionId) where.id = { [Op.ne]: ctx.params.exceptSessionId };
          return this.revoke(where, ctx.params.reason);
        },
      },
      revokeTenantSessions: {
        visibility: "public",
        params: { tenantId: "number", reason: "string" },
        async handler(ctx: Ctx<{ tenantId: number; reason: string }>) {
          return this.revoke({ tenantId: ctx.params.tenantId }, ctx.params.reason);
        },
      },
    },
    methods: {
      async limit(ctx: Ctx, key: string) {
        try {
          const r = await hit(deps.redis(), key, cfg.loginRateLimit.max, cfg.loginRateLimit.windowSeconds);
          if (!r.allowed) throw new AppError("ERR_RATE_LIMITED", { retryAfter: r.retryAfter });
        } catch (err) {
          if (err instanceof AppError) throw err;
          this.logger.warn(`Rate limiter unavailable (Redis): ${(err as Error).message}`);
        }
      },
      async openSession(ctx: Ctx, user: UserRow) {
        const sessionId = randomUUID();
        const refreshToken = randomToken(32);
        const ended = await deps.sequelize.transaction(async (transaction) => {
          // Concurrent logins of one user queue on the user's row: without it, on MariaDB two
          // transactions take the same gap lock, then deadlock on their inserts (answering 500).
          await lockUserRow(deps.sequelize, user.id, transaction);
          const open = await SessionModel.findAll({ where: { userId: user.id, revokedAt: null }, attributes: ["id"], transaction });
          const ids = open.map((s) => s.get("id") as string);
          if (ids.length) {
            await SessionModel.update({ revokedAt: new Date(), revokedReason: "logged_elsewhere" }, { where: { id: { [Op.in]: ids } }, transaction });
          }
          await SessionModel.create(
            {
              id: sessionId,
              tenantId: user.tenantId,
              userId: user.id,
              refreshHash: sha256(refreshToken),
              ip: ctx.meta.ip ?? null,
              userAgent: ctx.meta.userAgent?.slice(0, 300) ?? null,
              expiresAt: new Date(Date.now() + cfg.sessionTtlSeconds * 1000),
            },
            { transaction },
          );
          return ids;
        });
        // The older sessions end for every gateway node before this login answers.
        await Promise.all(ended.map((sid) => this.mirror(sid, { active: false, code: "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE" }, cfg.sessionTtlSeconds)));
        if (ended.length) void broadcast(this.broker, "auth.sessionEnded", { sessionIds: ended });
        await this.mirror(sessionId, { active: true }, cfg.sessionTtlSeconds);
        const token = signAccessToken(
          { sub: user.id, tid: user.tenantId, sid: sessionId, prf: user.profile as Profile, mst: !!user.isMaster, sup: !!user.isSupport },
          cfg.jwtSecret,
          cfg.accessTokenTtlSeconds,
        );
        return { sessionId, token, refreshToken };
      },
      async revoke(where: Record<string | symbol, unknown>, reason: string) {
        const open = await SessionModel.findAll({ where: { ...where, revokedAt: null }, attributes: ["id"] });
        if (!open.length) return { revoked: 0 };
        const ids = open.map((s) => s.get("id") as string);
        const [n] = await SessionModel.update({ revokedAt: new Date(), revokedReason: reason.slice(0, 32) }, { where: { id: { [Op.in]: ids }, revokedAt: null } });
        const code = revokeCode(reason);
        await Promise.all(ids.map((sid) => this.mirror(sid, { active: false, code }, cfg.sessionTtlSeconds)));
        void broadcast(this.broker, "auth.sessionEnded", { sessionIds: ids });
        return { revoked: n };
      },
      /** Writes a session's state to Redis; a Redis failure leaves the database answer in charge. */
      async mirror(sid: string, state: SessionState, ttl: number) {
        try {
          await writeSessionState(deps.redis(), sid, state, ttl);
        } catch (err) {
          this.logger.warn(`session state not mirrored to Redis: ${(err as Error).message}`);
        }
      },
    },
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
