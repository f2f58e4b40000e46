/**
 * A local Typebot viewer speaking both chat API generations (INTEGRATIONS.md §1, §5) with
 * scripted bots, recording every request:
 *
 * - POST /api/v1/typebots/:publicId/startChat, /api/v1/typebots/:id/preview/startChat (token
 *   required), /api/v1/sessions/:sessionId/continueChat, and the legacy /api/v1/sendMessage
 *   ({startParams} to start, {sessionId, message} to continue);
 * - string or {type:"text", text} messages; richText or markdown bubbles (textBubbleContentFormat);
 * - a choice input matched by item id, content or value (exact, trimmed); a wrong answer gets the
 *   retry bubble (its id is the input's) and the same input again;
 * - a session is deleted when its flow ends (no input): continuing it is 404 "Session not found.";
 * - errors as {message, code} with the tRPC status; `fail(status)` makes every chat call fail;
 * - GET /files/* serves media (a small PNG) for image bubbles; /files/missing/* is 404.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";

export interface Recorded {
  method: string;
  path: string;
  body: any;
  authorization: string | null;
}

type Rich = Array<Record<string, unknown>>;
type Bubble = { type: "text"; rich: Rich } | { type: "image" | "video" | "audio"; url: string; videoType?: string };
type Input = { type: "choice input"; items: Array<{ content: string; next: string }> } | { type: "text input"; next: string };
/** One step of a scripted bot: bubbles, then an input (or none: the end). */
export interface Step {
  bubbles: Bubble[];
  input?: Input;
  /** A `wait` client-side action after the step's first bubble. */
  waitSeconds?: number;
}
export type Bot = Record<string, Step> & { start: Step };

/** A 1×1 PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const p = (...children: Array<Record<string, unknown>>) => ({ type: "p", children });

/** The bots the tests talk to; `{{name}}` in a leaf is the prefilled variable. */
export function scriptedBots(filesBase: string): Record<string, Bot> {
  return {
    atendimento: {
      start: {
        bubbles: [
          { type: "text", rich: [p({ text: "Olá, " }, { text: "{{name}}", bold: true }, { text: "! Protocolo " }, { text: "{{protocol}}", italic: true }), p({ text: "Veja " }, { type: "a", url: "https://exemplo.com.br/ajuda", children: [{ text: "nossa ajuda" }] })] },
          { type: "image", url: `${filesBase}/files/logo.png` },
        ],
        input: { type: "choice input", items: [{ content: "Vendas", next: "vendas" }, { content: "Suporte", next: "suporte" }] },
        waitSeconds: 0.2,
      },
      vendas: { bubbles: [{ type: "text", rich: [p({ text: "Você escolheu " }, { text: "Vendas", bold: true })] }], input: { type: "text input", next: "fim" } },
      suporte: { bubbles: [{ type: "text", rich: [p({ text: "Suporte: descreva o problema" })] }], input: { type: "text input", next: "fim" } },
      fim: { bubbles: [{ type: "text", rich: [p({ text: "Obrigado! Um atendente vai continuar." })] }] },
    },
    curto: { start: { bubbles: [{ type: "text", rich: [p({ text: "Só um aviso e tchau." })] }] } },
    /** Media the platform cannot fetch (404), then the end. */
    midia: { start: { bubbles: [{ type: "image", url: `${filesBase}/files/missing/foto.png` }, { type: "video", url: "https://youtu.be/abc", videoType: "youtube" }] } },
  };
}

interface Session {
  id: string;
  bot: string;
  step: string;
  inputId: string | null;
  variables: Record<string, string>;
  format: "richText" | "markdown";
}

export interface FakeTypebot {
  url: string;
  requests: Recorded[];
  sessions: Map<string, Session>;
  /** Makes every chat call answer `status` (null: back to normal). */
  fail(status: number | null): void;
  /** Forgets a session (as Typebot does when it expires). */
  expire(sessionId: string): void;
  stop(): Promise<void>;
}

function fill(rich: Rich, vars: Record<string, string>): Rich {
  return JSON.parse(JSON.stringify(rich).replace(/\{\{(\w+)\}\}/g, (_, k: string) => (vars[k] ?? "").replace(/["\\]/g, "")));
}

function markdownOf(rich: Rich): string {
  const leaf = (n: any): string => {
    if (n.type === "a") return `[${(n.children ?? []).map(leaf).join("")}](${n.url})`;
    if (n.children) return n.children.map(leaf).join("");
    let t = n.text ?? "";
    if (n.bold) t = `**${t}**`;
    if (n.italic) t = `*${t}*`;
    return t;
  };
  return rich.map(leaf).join("\n");
}

export async function startFakeTypebot(opts: { token?: string } = {}): Promise<FakeTypebot> {
  const requests: Recorded[] = [];
  const sessions = new Map<string, Session>();
  let failing: number | null = null;
  let bots: Record<string, Bot> = {};

  function render(s: Session, stepName: string) {
    const step = bots[s.bot][stepName];
    const messages = step.bubbles.map((b, i) => {
      const id = `${stepName}-b${i}`;
      if (b.type !== "text") return { id, type: b.type, content: { url: b.url, ...(b.videoType ? { type: b.videoType } : {}) } };
      const rich = fill(b.rich, s.variables);
      return { id, type: "text", content: s.format === "markdown" ? { type: "markdown", markdown: markdownOf(rich) } : { type: "richText", richText: rich } };
    });
    const input = step.input ? { id: `${stepName}-input`, type: step.input.type, ...(step.input.type === "choice input" ? { items: step.input.items.map((it, i) => ({ id: `${stepName}-i${i}`, content: it.content })) } : {}), options: {} } : undefined;
    s.step = stepName;
    s.inputId = input?.id ?? null;
    if (!input) sessions.delete(s.id);
    const clientSideActions = step.waitSeconds && messages.length ? [{ type: "wait", wait: { secondsToWaitFor: step.waitSeconds }, lastBubbleBlockId: messages[0].id }] : undefined;
    return { messages, ...(input ? { input } : {}), ...(clientSideActions ? { clientSideActions } : {}) };
  }

  function start(publicId: string, body: any, legacy: boolean) {
    if (!bots[publicId]) return { status: 404, json: { message: "Typebot not found", code: "NOT_FOUND" } };
    const vars = (legacy ? body.startParams?.prefilledVariables : body.prefilledVariables) ?? {};
    const s: Session = { id: randomUUID(), bot: publicId, step: "start", inputId: null, variables: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])), format: body.textBubbleContentFormat === "markdown" ? "markdown" : "richText" };
    sessions.set(s.id, s);
    const registering = legacy ? body.startParams?.isOnlyRegistering : body.isOnlyRegistering;
    if (registering) return { status: 200, json: { sessionId: s.id, typebot: { id: publicId, version: "6" }, messages: [] } };
    return { status: 200, json: { sessionId: s.id, typebot: { id: publicId, version: "6", theme: {}, settings: {} }, ...render(s, "start") } };
  }

  function cont(sessionId: string, message: unknown) {
    const s = sessions.get(sessionId);
    if (!s) return { status: 404, json: { message: "Session not found.", code: "NOT_FOUND" } };
    const text = typeof message === "string" ? message : ((message as { text?: string } | undefined)?.text ?? "");
    const input = bots[s.bot][s.step].input;
    if (!input) return { status: 404, json: { message: "Session not found.", code: "NOT_FOUND" } };
    if (input.type === "text input") return { status: 200, json: render(s, input.next) };
    const items = input.items.map((it, i) => ({ ...it, id: `${s.step}-i${i}` }));
    const hit = items.find((it) => it.id === text || it.content === text.trim());
    if (!hit) {
      const again = render(s, s.step);
      return { status: 200, json: { messages: [{ id: s.inputId, type: "text", content: { type: "richText", richText: [p({ text: "Invalid message. Please, try again." })] } }], input: again.input } };
    }
    return { status: 200, json: render(s, hit.next) };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      let body: any = null;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
      } catch {
        body = null;
      }
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.method === "GET" && path.startsWith("/files/missing/")) return send(404, { message: "Not found", code: "NOT_FOUND" });
      if (req.method === "GET" && path.startsWith("/files/")) {
        res.writeHead(200, { "content-type": "image/png", "content-length": String(PNG.length) });
        return res.end(PNG);
      }
      requests.push({ method: req.method ?? "", path, body, authorization: req.headers.authorization ?? null });
      if (req.method !== "POST") return send(405, { message: "Method not allowed", code: "METHOD_NOT_SUPPORTED" });
      if (failing) return send(failing, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
      if (body === null || typeof body !== "object") return send(400, { message: "Input validation failed", code: "BAD_REQUEST" });
      let m: RegExpMatchArray | null;
      let r: { status: number; json: unknown };
      if ((m = /^\/api\/v1\/typebots\/([^/]+)\/preview\/startChat$/.exec(path))) {
        if (!opts.token || req.headers.authorization !== `Bearer ${opts.token}`) return send(401, { message: "You need to be authenticated to perform this action", code: "UNAUTHORIZED" });
        r = start(decodeURIComponent(m[1]), body, false);
      } else if ((m = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path))) r = start(decodeURIComponent(m[1]), body, false);
      else if ((m = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path))) r = cont(decodeURIComponent(m[1]), body.message);
      else if (path === "/api/v1/sendMessage" || path === "/api/v2/sendMessage") {
        if (body.sessionId) r = cont(String(body.sessionId), body.message);
        else if (body.startParams?.publicId || body.startParams?.typebot) r = start(String(body.startParams.publicId ?? body.startParams.typebot), body, true);
        else r = { status: 400, json: { message: "Input validation failed", code: "BAD_REQUEST" } };
      } else r = { status: 404, json: { message: "Not found", code: "NOT_FOUND" } };
      send(r.status, r.json);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bots = scriptedBots(url);
  return {
    url,
    requests,
    sessions,
    fail: (status) => {
      failing = status;
    },
    expire: (id) => {
      sessions.delete(id);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
