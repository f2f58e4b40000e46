/**
 * A local server that speaks the Telegram Bot API's HTTP protocol, for tests: telegraf points
 * at it with `apiRoot` and never notices. It does what the tests need the way Telegram does
 * it: `POST /bot<token>/<method>` with JSON, form or multipart bodies, answers
 * `{ ok, result }` or `{ ok: false, error_code, description, parameters }`; getUpdates long
 * polls, and an `offset` confirms (forgets) every update below it; a webhook and getUpdates
 * exclude each other (409); files are served at `/file/bot<token>/<file_path>`.
 * Tests push updates, program failures (a 429 with retry_after, a 400) and read every call.
 */
import * as http from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { parseMultipart, parseValue, readBody, type UploadedPart } from "./fake-bot-body";

export type { UploadedPart };

export interface FakeCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
  /** Multipart file parts by field name. */
  files: Record<string, UploadedPart>;
  /** When the request arrived (ms). */
  at: number;
  /** HTTP status answered. */
  status: number;
  result?: unknown;
}

export interface BotError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

interface Waiter {
  res: http.ServerResponse;
  timer: NodeJS.Timeout;
  limit: number;
}

interface Bot {
  token: string;
  id: number;
  username: string;
  /** Unconfirmed updates, oldest first. */
  updates: Array<Record<string, any>>;
  nextUpdateId: number;
  waiter: Waiter | null;
  webhook: { url: string; secret_token?: string; allowed_updates?: unknown } | null;
  messageIds: Map<string, number>;
  /** How many times getUpdates answered each update_id. */
  deliveries: Map<number, number>;
  getUpdates: Array<{ offset?: number; timeout: number; at: number }>;
}

interface ProgrammedFailure {
  method: string;
  chatId?: string;
  error: BotError;
  times: number;
}

const FILE_FIELDS: Record<string, string> = {
  sendPhoto: "photo",
  sendDocument: "document",
  sendAudio: "audio",
  sendVideo: "video",
  sendVoice: "voice",
  sendAnimation: "animation",
  sendSticker: "sticker",
};

function send(res: http.ServerResponse, status: number, body: unknown) {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const fail = (e: BotError) => ({ ok: false, ...e });

export class FakeBotApi {
  readonly calls: FakeCall[] = [];
  url = "";
  private readonly bots = new Map<string, Bot>();
  private readonly files = new Map<string, { token: string; path: string; data: Buffer; uniqueId: string }>();
  private failures: ProgrammedFailure[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<import("node:net").Socket>();
  private fileSeq = 0;

  private constructor() {
    this.server = http.createServer((req, res) => {
      this.route(req, res).catch((err: Error) => send(res, 500, fail({ error_code: 500, description: `fake: ${err.message}` })));
    });
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
  }

  static async start(): Promise<FakeBotApi> {
    const api = new FakeBotApi();
    await new Promise<void>((resolve) => api.server.listen(0, "127.0.0.1", resolve));
    api.url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    return api;
  }

  async close(): Promise<void> {
    for (const b of this.bots.values()) if (b.waiter) this.answerWaiter(b, []);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A bot with a well-formed token; getMe answers it, anything else is Unauthorized. */
  addBot(opts: { username?: string } = {}): { token: string; id: number; username: string } {
    const id = 100000 + Math.floor(Math.random() * 900000000);
    const token = `${id}:AA${randomBytes(24).toString("base64url").slice(0, 33)}`;
    const username = opts.username ?? `fake_${id}_bot`;
    this.bots.set(token, { token, id, username, updates: [], nextUpdateId: 1000 + Math.floor(Math.random() * 1000), waiter: null, webhook: null, messageIds: new Map(), deliveries: new Map(), getUpdates: [] });
    return { token, id, username };
  }

  private bot(token: string): Bot {
    const b = this.bots.get(token);
    if (!b) throw new Error(`fake: no bot ${token}`);
    return b;
  }

  /** Queues an update for getUpdates (update_id given or the next one); answers it. */
  pushUpdate(token: string, update: Record<string, any>): Record<string, any> {
    const b = this.bot(token);
    const u = { update_id: update.update_id ?? b.nextUpdateId++, ...update };
    b.nextUpdateId = Math.max(b.nextUpdateId, u.update_id + 1);
    b.updates.push(u);
    b.updates.sort((x, y) => x.update_id - y.update_id);
    if (b.waiter) this.answerWaiter(b, b.updates.slice(0, b.waiter.limit));
    return u;
  }

  /** A new update_id for an update a test builds itself. */
  nextUpdateId(token: string): number {
    return this.bot(token).nextUpdateId++;
  }

  /** Stores a file for getFile and /file/bot<token>/<path>. */
  addFile(token: string, data: Buffer, opts: { path?: string } = {}): { file_id: string; file_unique_id: string; file_size: number; file_path: string } {
    const n = ++this.fileSeq;
    const fileId = `FILE${n}-${randomBytes(6).toString("hex")}`;
    const uniqueId = `U${n}${randomBytes(3).toString("hex")}`;
    const path = opts.path ?? `documents/file_${n}.bin`;
    this.files.set(fileId, { token, path, data, uniqueId });
    return { file_id: fileId, file_unique_id: uniqueId, file_size: data.length, file_path: path };
  }

  /** The next `times` calls of `method` (to `chatId`, when given) answer `error`. */
  failNext(method: string, error: BotError, opts: { chatId?: string | number; times?: number } = {}): void {
    this.failures.push({ method, error, chatId: opts.chatId === undefined ? undefined : String(opts.chatId), times: opts.times ?? 1 });
  }

  webhookOf(token: string) {
    return this.bot(token).webhook;
  }

  pending(token: string): number[] {
    return this.bot(token).updates.map((u) => u.update_id);
  }

  deliveries(token: string, updateId: number): number {
    return this.bot(token).deliveries.get(updateId) ?? 0;
  }

  getUpdatesLog(token: string) {
    return this.bot(token).getUpdates;
  }

  /** Successful calls of a send method (sendMessage, sendPhoto, …), optionally to one chat. */
  sends(token: string, opts: { chatId?: string | number; method?: string } = {}): FakeCall[] {
    return this.calls.filter(
      (c) =>
        c.token === token &&
        c.status === 200 &&
        (opts.method ? c.method === opts.method : /^send/.test(c.method)) &&
        (opts.chatId === undefined || String(c.params.chat_id) === String(opts.chatId)),
    );
  }

  /**
   * Plays Telegram delivering an update to the bot's webhook: POST to the URL given to
   * setWebhook (its origin replaced by `origin`, the test server) with the secret header.
   */
  async deliverWebhook(token: string, update: Record<string, any>, opts: { origin: string; secret?: string | null }): Promise<{ status: number; body: any }> {
    const hook = this.bot(token).webhook;
    if (!hook) throw new Error("fake: no webhook set");
    const u = new URL(hook.url);
    const target = `${opts.origin}${u.pathname}${u.search}`;
    const secret = opts.secret === undefined ? hook.secret_token : opts.secret;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (secret !== null && secret !== undefined) headers["x-telegram-bot-api-secret-token"] = secret;
    const res = await fetch(target, { method: "POST", headers, body: JSON.stringify(update) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* text */
    }
    return { status: res.status, body };
  }

  /** A private-chat message as Telegram sends it. */
  static message(chat: { id: number; first_name?: string; last_name?: string; username?: string }, fields: Record<string, unknown>, messageId: number): Record<string, unknown> {
    const user = { id: chat.id, is_bot: false, first_name: chat.first_name ?? "Cliente", ...(chat.last_name ? { last_name: chat.last_name } : {}), ...(chat.username ? { username: chat.username } : {}) };
    return {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      from: user,
      chat: { ...user, type: "private", is_bot: undefined },
      ...fields,
    };
  }

  // --- the protocol -------------------------------------------------------------------------

  private async route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file && req.method === "GET") return this.serveFile(decodeURIComponent(file[1]), decodeURIComponent(file[2]), res);
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!m) return send(res, 404, fail({ error_code: 404, description: "Not Found" }));
    const [, token, method] = m;
    const at = Date.now();
    const { params, files } = await this.paramsOf(req, url);
    const call: FakeCall = { token, method, params, files, at, status: 0 };
    this.calls.push(call);
    const answer = (status: number, body: { ok: boolean; result?: unknown }) => {
      call.status = status;
      call.result = body.result;
      send(res, status, body);
    };

    if (!/^\d+:[A-Za-z0-9_-]+$/.test(token)) return answer(404, fail({ error_code: 404, description: "Not Found" }));
    const bot = this.bots.get(token);
    if (!bot) return answer(401, fail({ error_code: 401, description: "Unauthorized" }));

    const chatId = params.chat_id === undefined ? undefined : String(params.chat_id);
    const programmed = this.failures.find((f) => f.method === method && f.times > 0 && (f.chatId === undefined || f.chatId === chatId));
    if (programmed) {
      programmed.times--;
      this.failures = this.failures.filter((f) => f.times > 0);
      return answer(programmed.error.error_code, fail(programmed.error));
    }

    switch (method) {
      case "getMe":
        return answer(200, { ok: true, result: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } });
      case "setWebhook": {
        const hookUrl = String(params.url ?? "");
        if (!hookUrl) bot.webhook = null;
        else bot.webhook = { url: hookUrl, secret_token: params.secret_token as string | undefined, allowed_updates: params.allowed_updates };
        if (bot.webhook && bot.waiter) this.answerWaiter(bot, null);
        return answer(200, { ok: true, result: true });
      }
      case "deleteWebhook":
        bot.webhook = null;
        if (params.drop_pending_updates === true || params.drop_pending_updates === "true") bot.updates = [];
        return answer(200, { ok: true, result: true });
      case "getWebhookInfo":
        return answer(200, { ok: true, result: { url: bot.webhook?.url ?? "", has_custom_certificate: false, pending_update_count: bot.updates.length } });
      case "getUpdates":
        return this.getUpdates(bot, params, call, res);
      case "getFile": {
        const f = this.files.get(String(params.file_id ?? ""));
        if (!f || f.token !== token) return answer(400, fail({ error_code: 400, description: "Bad Request: invalid file_id" }));
        return answer(200, { ok: true, result: { file_id: params.file_id, file_unique_id: f.uniqueId, file_size: f.data.length, file_path: f.path } });
      }
      case "editMessageText":
        return answer(200, { ok: true, result: { message_id: Number(params.message_id), date: Math.floor(at / 1000), edit_date: Math.floor(at / 1000), chat: this.chatOf(chatId!), text: params.text } });
      case "deleteMessage":
      case "setMessageReaction":
        return answer(200, { ok: true, result: true });
      default:
        if (method === "sendMessage" || FILE_FIELDS[method]) {
          if (chatId === undefined || chatId === "") return answer(400, fail({ error_code: 400, description: "Bad Request: chat_id is empty" }));
          if (method === "sendMessage" && !String(params.text ?? "")) return answer(400, fail({ error_code: 400, description: "Bad Request: message text is empty" }));
          const field = FILE_FIELDS[method];
          if (field && params[field] === undefined && !files[field]) return answer(400, fail({ error_code: 400, description: `Bad Request: there is no ${field} in the request` }));
          // A sticker upload must be a sticker file (a static one is a WebP: RIFF….WEBP).
          const sticker = method === "sendSticker" ? files.sticker?.data : undefined;
          if (sticker && sticker.subarray(0, 4).toString("latin1") + sticker.subarray(8, 12).toString("latin1") !== "RIFFWEBP") {
            return answer(400, fail({ error_code: 400, description: "Bad Request: wrong file type of the sticker" }));
          }
          const next = (bot.messageIds.get(chatId) ?? 0) + 1;
          bot.messageIds.set(chatId, next);
          const msg: Record<string, unknown> = { message_id: next, date: Math.floor(at / 1000), chat: this.chatOf(chatId), from: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username } };
          if (method === "sendMessage") msg.text = params.text;
          else {
            if (params.caption !== undefined) msg.caption = params.caption;
            const uploaded = files[field];
            msg[field] = { file_id: `SENT${next}`, file_unique_id: `S${next}`, file_size: uploaded?.data.length ?? 0, ...(method === "sendSticker" ? { type: "regular", width: 512, height: 512, is_animated: false, is_video: false } : {}) };
          }
          return answer(200, { ok: true, result: msg });
        }
        return answer(404, fail({ error_code: 404, description: "Not Found: method not found" }));
    }
  }

  private chatOf(chatId: string) {
    const numeric = /^-?\d+$/.test(chatId);
    return { id: numeric ? Number(chatId) : chatId, type: numeric && chatId.startsWith("-") ? "group" : "private" };
  }

  private getUpdates(bot: Bot, params: Record<string, unknown>, call: FakeCall, res: http.ServerResponse) {
    const offset = params.offset === undefined ? undefined : Number(params.offset);
    const timeout = Math.min(50, Number(params.timeout ?? 0) || 0);
    const limit = Math.max(1, Math.min(100, Number(params.limit ?? 100) || 100));
    bot.getUpdates.push({ offset, timeout, at: call.at });
    if (bot.webhook) {
      call.status = 409;
      return send(res, 409, fail({ error_code: 409, description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first" }));
    }
    // An offset confirms every update below it: they are gone for good.
    if (offset !== undefined && offset > 0) bot.updates = bot.updates.filter((u) => u.update_id >= offset);
    if (bot.waiter) {
      const old = bot.waiter;
      bot.waiter = null;
      clearTimeout(old.timer);
      send(old.res, 409, fail({ error_code: 409, description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" }));
    }
    call.status = 200;
    if (bot.updates.length || timeout === 0) return this.deliver(bot, res, bot.updates.slice(0, limit));
    const waiter: Waiter = { res, limit, timer: setTimeout(() => this.answerWaiter(bot, []), timeout * 1000) };
    bot.waiter = waiter;
    res.on("close", () => {
      if (bot.waiter === waiter) {
        clearTimeout(waiter.timer);
        bot.waiter = null;
      }
    });
  }

  /** Answers the waiting getUpdates (null: with a 409, a webhook was set meanwhile). */
  private answerWaiter(bot: Bot, updates: Array<Record<string, any>> | null) {
    const w = bot.waiter;
    if (!w) return;
    bot.waiter = null;
    clearTimeout(w.timer);
    if (updates === null) return send(w.res, 409, fail({ error_code: 409, description: "Conflict: can't use getUpdates method while webhook is active" }));
    this.deliver(bot, w.res, updates);
  }

  private deliver(bot: Bot, res: http.ServerResponse, updates: Array<Record<string, any>>) {
    if (res.writableEnded || res.destroyed) return;
    for (const u of updates) bot.deliveries.set(u.update_id, (bot.deliveries.get(u.update_id) ?? 0) + 1);
    send(res, 200, { ok: true, result: updates });
  }

  private serveFile(token: string, path: string, res: http.ServerResponse) {
    const f = [...this.files.values()].find((x) => x.token === token && x.path === path);
    if (!f) return send(res, 404, fail({ error_code: 404, description: "Not Found" }));
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(f.data.length) });
    res.end(f.data);
  }

  private async paramsOf(req: http.IncomingMessage, url: URL): Promise<{ params: Record<string, unknown>; files: Record<string, UploadedPart> }> {
    const params: Record<string, unknown> = {};
    for (const [k, v] of url.searchParams) params[k] = parseValue(v);
    const body = await readBody(req);
    const type = String(req.headers["content-type"] ?? "");
    let files: Record<string, UploadedPart> = {};
    if (body.length) {
      if (type.startsWith("application/json")) Object.assign(params, JSON.parse(body.toString("utf8")));
      else if (type.startsWith("application/x-www-form-urlencoded")) for (const [k, v] of new URLSearchParams(body.toString("utf8"))) params[k] = parseValue(v);
      else if (type.startsWith("multipart/form-data")) {
        const boundary = /boundary=([^;]+)/.exec(type)?.[1];
        if (boundary) {
          const parsed = parseMultipart(body, boundary.replace(/^"|"$/g, ""));
          Object.assign(params, parsed.fields);
          files = parsed.files;
        }
      }
    }
    return { params, files };
  }
}
