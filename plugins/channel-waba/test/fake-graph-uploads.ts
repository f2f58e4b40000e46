/**
 * The fake Graph API's Resumable Upload API (how a template's media header sample reaches
 * Meta), added to a running FakeGraph:
 *
 *   POST /<ver>/<app id>/uploads?file_name=&file_length=&file_type=   Bearer <a number's token>
 *        → { id: "upload:<base64>?sig=<hex>" }
 *   POST /<ver>/upload:<base64>?sig=<hex>   Authorization: OAuth <the same token>, file_offset: 0,
 *        the bytes as the body (exactly file_length of them) → { h: "4::<base64>" }
 *
 * The first call takes the token as Bearer, the second only as `OAuth` (Meta's upload host
 * refuses a Bearer there). A handle remembers the token, app and type it was uploaded with:
 * FakeTemplates accepts a media header only with a handle of a file of that kind uploaded
 * with a token of the template's business account.
 */
import { randomBytes } from "node:crypto";
import type * as http from "node:http";
import type { FakeGraph, Injected } from "./fake-graph";

export interface UploadedSample {
  handle: string;
  appId: string;
  token: string;
  fileName: string;
  fileType: string;
  data: Buffer;
}

interface Session {
  appId: string;
  token: string;
  fileName: string;
  fileType: string;
  fileLength: number;
}

const TYPES = ["image/jpeg", "image/png", "video/mp4", "video/3gpp", "application/pdf"];
const metaError = (e: Injected) => ({ error: { message: `(#${e.code}) ${e.message}`, type: "OAuthException", code: e.code, ...(e.subcode ? { error_subcode: e.subcode } : {}), fbtrace_id: `A${randomBytes(6).toString("hex")}` } });

export class FakeUploads {
  readonly sessions = new Map<string, Session>();
  readonly samples = new Map<string, UploadedSample>();
  /** Every upload call, refused ones too: which step, and how it was refused (or null). */
  readonly calls: Array<{ step: "start" | "bytes"; refused: string | null }> = [];
  private readonly queued: Record<"start" | "bytes", Injected[]> = { start: [], bytes: [] };

  constructor(private readonly graph: FakeGraph) {
    const g = graph as unknown as { handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> };
    const inner = g.handle.bind(graph);
    g.handle = async (req, res) => {
      const u = new URL(req.url ?? "/", graph.url);
      const start = /^\/v\d+\.\d+\/(\d+)\/uploads$/.exec(u.pathname);
      const bytes = /^\/v\d+\.\d+\/(upload:.+)$/.exec(u.pathname);
      if (req.method !== "POST" || (!start && !bytes)) return inner(req, res);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = (status: number, body: unknown, refused: string | null) => {
        this.calls.push({ step: start ? "start" : "bytes", refused });
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const failure = this.queued[start ? "start" : "bytes"].shift();
      if (failure) return answer(failure.httpStatus, metaError(failure), "injected");
      if (start) return this.start(start[1], u.searchParams, String(req.headers.authorization ?? ""), answer);
      return this.bytes(`${decodeURIComponent(bytes![1])}${u.search}`, req.headers, Buffer.concat(chunks), answer);
    };
  }

  /** The next calls of `step` (opening a session, or sending the bytes) answer these errors, one each. */
  failNext(step: "start" | "bytes", ...errors: Injected[]): void {
    this.queued[step].push(...errors);
  }

  /** The sample a handle names, when it is a file of one of `types` uploaded with a token of `tokens`. */
  valid(handle: unknown, tokens: string[], types: string[]): UploadedSample | null {
    const s = typeof handle === "string" ? this.samples.get(handle) : undefined;
    return s && tokens.includes(s.token) && types.includes(s.fileType) ? s : null;
  }

  private start(appId: string, q: URLSearchParams, auth: string, answer: (s: number, b: unknown, r: string | null) => void): void {
    const token = auth.replace(/^Bearer /, "");
    if (!auth.startsWith("Bearer ") || ![...this.graph.numbers.values()].some((n) => n.token === token)) return answer(401, metaError({ httpStatus: 401, code: 190, subcode: 463, message: "Error validating access token" }), "token");
    const fileLength = Number(q.get("file_length"));
    const fileType = q.get("file_type") ?? "";
    if (!Number.isInteger(fileLength) || fileLength <= 0) return answer(400, metaError({ httpStatus: 400, code: 100, message: "Invalid parameter: file_length" }), "file_length");
    if (!TYPES.includes(fileType)) return answer(400, metaError({ httpStatus: 400, code: 100, message: "Invalid parameter: file_type" }), "file_type");
    const id = `upload:${randomBytes(18).toString("base64").replace(/=+$/, "")}?sig=${randomBytes(10).toString("hex")}`;
    this.sessions.set(id, { appId, token, fileName: q.get("file_name") ?? "", fileType, fileLength });
    return answer(200, { id }, null);
  }

  private bytes(id: string, headers: http.IncomingHttpHeaders, body: Buffer, answer: (s: number, b: unknown, r: string | null) => void): void {
    const session = this.sessions.get(id);
    if (!session) return answer(400, metaError({ httpStatus: 400, code: 100, message: "Invalid upload session" }), "session");
    const auth = String(headers.authorization ?? "");
    if (auth !== `OAuth ${session.token}`) return answer(401, metaError({ httpStatus: 401, code: 190, message: "Error validating access token (OAuth expected)" }), "oauth");
    if (headers.file_offset !== "0") return answer(400, metaError({ httpStatus: 400, code: 100, message: "Invalid parameter: file_offset" }), "file_offset");
    if (body.length !== session.fileLength) return answer(400, metaError({ httpStatus: 400, code: 100, message: "File length does not match file_length" }), "length");
    this.sessions.delete(id);
    const handle = `4::${Buffer.from(`${session.fileType}:`).toString("base64")}${randomBytes(24).toString("base64")}`;
    this.samples.set(handle, { handle, appId: session.appId, token: session.token, fileName: session.fileName, fileType: session.fileType, data: body });
    return answer(200, { h: handle }, null);
  }
}
