/**
 * A local Comtele: its REST API v2 as documented (docs.comtele.com.br and Comtele's SDKs) —
 * every call authenticated by the `auth-key` header, a bare 401 (no body) for an unknown key,
 * `POST /api/v2/send` `{ Sender, Receivers, Content }` and `GET /api/v2/credits`, answers as
 * `{ Success, Object, Message }` — and the two callbacks an account sets in Comtele's panel: a
 * delivery report per message and each reply of a customer, posted as JSON, unsigned (see the
 * plugin's README, "What is inferred", for the callbacks' fields).
 *
 * Each account pays one credit per SMS part; with too few the send answers Success false
 * ("Saldo insuficiente") and nothing goes. Tests read what Comtele received (`requests`,
 * `messages`) and make it call back (`report`, `reply`).
 */
import * as http from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";

export interface FakeAccount {
  token: string;
  credits: number;
  /** The callback addresses set in the panel. */
  callbacks: { status?: string; inbound?: string };
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

export interface FakeSms {
  id: string;
  token: string;
  sender: string;
  receiver: string;
  content: string;
  parts: number;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
};

/** One credit per part: 160 characters in one, 153 per part once split (the fake does not tell GSM-7 from UCS-2). */
const partsOf = (text: string) => (text.length <= 160 ? 1 : Math.ceil(text.length / 153));

export class FakeComtele {
  readonly requests: FakeRequest[] = [];
  readonly messages: FakeSms[] = [];
  private readonly accounts = new Map<string, FakeAccount>();
  /** What the next send does instead of answering: "reset" cuts the connection after reading it (the send may have gone). */
  private nextSend: "reset" | null = null;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeComtele> {
    let fake: FakeComtele | null = null;
    const server = http.createServer((req, res) => void fake!.handle(req, res));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    fake = new FakeComtele(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`);
    return fake;
  }

  addAccount(opts: { credits?: number } = {}): FakeAccount {
    const a: FakeAccount = { token: randomUUID().toUpperCase(), credits: opts.credits ?? 100, callbacks: {} };
    this.accounts.set(a.token, a);
    return a;
  }

  account(token: string): FakeAccount {
    const a = this.accounts.get(token);
    if (!a) throw new Error(`no fake account ${token}`);
    return a;
  }

  sendsOf(token: string): FakeSms[] {
    return this.messages.filter((m) => m.token === token);
  }

  failNextSend(how: "reset"): void {
    this.nextSend = how;
  }

  /** Comtele's delivery report of a message to the account's status callback; answers the receiver's HTTP status. */
  report(id: string, dlrStatus: string, extra: Record<string, unknown> = {}): Promise<number> {
    const m = this.messages.find((x) => x.id === id);
    if (!m) throw new Error(`no fake message ${id}`);
    const status = dlrStatus === "DELIVRD" ? "Entregue" : dlrStatus === "ENROUTE" || dlrStatus === "ACCEPTD" ? "Enviado" : "Não entregue";
    const body = { RequestUniqueId: id, Receiver: m.receiver, Content: m.content, Sender: m.sender, Status: status, DlrStatus: dlrStatus, SystemMessage: dlrStatus === "DELIVRD" ? "" : `Operadora: ${dlrStatus}`, DeliveryDate: new Date().toISOString(), ...extra };
    return this.callback(this.account(m.token).callbacks.status, body);
  }

  /** A customer's reply to the account's inbound callback (the reply report's fields). */
  reply(token: string, r: { from: string; text: string; name?: string; replyTo?: string; at?: Date }): Promise<number> {
    const body = {
      Sender: r.from,
      SenderName: r.name ?? "",
      ReceivedContent: r.text,
      ReceivedDate: (r.at ?? new Date()).toISOString(),
      ...(r.replyTo ? { RequestUniqueId: r.replyTo, SentContent: this.messages.find((m) => m.id === r.replyTo)?.content ?? "" } : {}),
    };
    return this.callback(this.account(token).callbacks.inbound, body);
  }

  /** Posts to any address (a test's wrong secret, another connection's path). */
  async post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private async callback(url: string | undefined, body: unknown): Promise<number> {
    if (!url) throw new Error("the account has no callback address for this event");
    return (await this.post(url, body)).status;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = (req.url ?? "").split("?")[0];
    let body: Record<string, unknown> | null = null;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    } catch {
      return json(res, 400, { Success: false, Object: null, Message: "Requisição inválida" });
    }
    this.requests.push({ method: req.method ?? "", path, headers: req.headers, body });
    const key = req.headers["auth-key"];
    const account = typeof key === "string" ? this.accounts.get(key) : undefined;
    if (!account) {
      // Comtele's 401 carries no JSON body.
      res.writeHead(401);
      return void res.end();
    }
    if (req.method === "GET" && path === "/api/v2/credits") return json(res, 200, { Success: true, Object: String(account.credits), Message: "" });
    if (req.method === "POST" && path === "/api/v2/send") return this.send(account, body, res);
    return json(res, 404, { Success: false, Object: null, Message: "Recurso não encontrado" });
  }

  private send(account: FakeAccount, body: Record<string, unknown> | null, res: http.ServerResponse): void {
    const receivers = typeof body?.Receivers === "string" ? body.Receivers.split(",").map((s) => s.trim()) : [];
    const content = typeof body?.Content === "string" ? body.Content : "";
    if (!receivers.length || !content) return json(res, 400, { Success: false, Object: null, Message: "Os campos Receivers e Content são obrigatórios" });
    if (!receivers.every((r) => /^\d{10,15}$/.test(r))) return json(res, 200, { Success: false, Object: null, Message: "Número de destinatário inválido" });
    const cost = partsOf(content) * receivers.length;
    if (account.credits < cost) return json(res, 200, { Success: false, Object: null, Message: "Saldo insuficiente" });
    account.credits -= cost;
    const id = randomUUID();
    for (const receiver of receivers) this.messages.push({ id, token: account.token, sender: String(body?.Sender ?? ""), receiver, content, parts: partsOf(content) });
    if (this.nextSend === "reset") {
      this.nextSend = null;
      // Comtele took it, and the answer is lost on the way back.
      res.socket?.destroy();
      return;
    }
    json(res, 200, { Success: true, Object: { RequestUniqueId: id, Receivers: receivers.length, Credits: account.credits }, Message: "Mensagem enviada com sucesso" });
  }
}
