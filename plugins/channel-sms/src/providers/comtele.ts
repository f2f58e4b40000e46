/**
 * Comtele (a Brazilian SMS provider) through its REST API v2 (docs.comtele.com.br):
 * base https://sms.comtele.com.br/api/v2, every call with the header `auth-key: <API key>`,
 * answers `{ Success, Object, Message }`, and a refused key is a bare 401 with no body.
 *
 * - send:    POST /send `{ Sender, Receivers, Content }` (Receivers: the numbers, comma-separated;
 *            Sender: the sender id, honoured only when approved on the account). The request's
 *            id comes back in `Object.RequestUniqueId` and is what the reports name.
 * - balance: GET /credits → `Object` holds the account's credits (a number as text).
 * - callbacks (set in Comtele's panel, one URL per kind): a delivery report per message
 *   (`RequestUniqueId`, `DlrStatus` with the SMPP receipt's stat — DELIVRD, UNDELIV, EXPIRED,
 *   REJECTD… —, `Status`, `SystemMessage`, `DeliveryDate`) and each reply of a customer (the
 *   reply report's fields: `Sender` the customer's number, `SenderName`, `ReceivedContent`,
 *   `ReceivedDate`, and `RequestUniqueId` of the message answered). Comtele signs none of them:
 *   the connection's secret in the callback's path is the proof (verifyWebhook).
 *
 * Send, credits and the report shapes come from Comtele's docs and its published SDKs; the
 * callbacks' field names follow its report resources (DetailedReport, ReplyReport) and are
 * read case-insensitively, as JSON or as a form (see README, "What is inferred").
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { safeFetch, type OutboundPolicy } from "@openatende/plugin-sdk";
import {
  DeliveryFormatError,
  ProviderError,
  type Balance,
  type DeliveryReport,
  type InboundSms,
  type OutboundSms,
  type SentSms,
  type SmsProvider,
  type WebhookDelivery,
} from "./provider";
import { failureOfRequest, readFields, timeOf } from "./http";

export const COMTELE_API = "https://sms.comtele.com.br/api/v2";
const SEND_TIMEOUT_MS = 20_000;
const READ_TIMEOUT_MS = 10_000;

/** SMPP delivery receipt stats (the `stat:` of a receipt) as the contract's ack statuses. */
const DLR: Record<string, DeliveryReport["status"]> = {
  DELIVRD: "delivered",
  DELIVERED: "delivered",
  ACCEPTD: "sent",
  ENROUTE: "sent",
  SENT: "sent",
  UNDELIV: "failed",
  EXPIRED: "failed",
  REJECTD: "failed",
  DELETED: "failed",
  UNKNOWN: "failed",
  FAILED: "failed",
};

interface ComteleAnswer {
  Success?: boolean;
  Object?: unknown;
  Message?: string;
}

export interface ComteleOptions {
  token: string;
  sender?: string;
  apiUrl?: string;
  policy: OutboundPolicy;
}

/** Constant-time equality of two secrets of any length (compares their digests). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

export class ComteleProvider implements SmsProvider {
  readonly id = "comtele" as const;
  private readonly base: string;

  constructor(private readonly opts: ComteleOptions) {
    this.base = (opts.apiUrl || COMTELE_API).replace(/\/+$/, "");
  }

  async send(sms: OutboundSms): Promise<SentSms> {
    const body = JSON.stringify({ Sender: this.opts.sender ?? "", Receivers: sms.to, Content: sms.text });
    const answer = await this.call("POST", "/send", body, SEND_TIMEOUT_MS, true);
    if (answer.Success !== true) throw refusalOf(answer.Message);
    const id = readFields(answer.Object).requestuniqueid;
    if (typeof id !== "string" || !id) throw new ProviderError("uncertain", "Comtele accepted the message without naming it (no RequestUniqueId)");
    return { providerMessageId: id, timestamp: Date.now() };
  }

  async balance(): Promise<Balance> {
    const answer = await this.call("GET", "/credits", undefined, READ_TIMEOUT_MS, false);
    if (answer.Success !== true) throw refusalOf(answer.Message);
    const credits = Number(String(answer.Object ?? "").trim());
    if (!Number.isFinite(credits)) throw new ProviderError("refused", `Comtele answered an unreadable balance (${String(answer.Object).slice(0, 40)})`);
    return { credits: Math.max(0, Math.floor(credits)) };
  }

  verifyWebhook(delivery: WebhookDelivery, secret: string): boolean {
    return sameSecret(delivery.pathSecret, secret);
  }

  parseDeliveryReports(delivery: WebhookDelivery): DeliveryReport[] {
    const out: DeliveryReport[] = [];
    for (const f of itemsOf(delivery)) {
      const id = text(f.requestuniqueid);
      if (!id) continue;
      const stat = text(f.dlrstatus).toUpperCase();
      const status = DLR[stat] ?? (/entregue|delivered/i.test(text(f.status)) ? "delivered" : undefined);
      if (!status) continue; // a stat nobody knows says nothing about the message
      const reason = status === "failed" ? text(f.systemmessage) || stat : undefined;
      const at = timeOf(f.deliverydate);
      out.push({ providerMessageId: id, status, ...(reason ? { reason } : {}), ...(at ? { timestamp: at } : {}) });
    }
    return out;
  }

  parseInbound(delivery: WebhookDelivery): InboundSms[] {
    const out: InboundSms[] = [];
    for (const f of itemsOf(delivery)) {
      const from = text(f.sender).replace(/\D/g, "");
      const body = text(f.receivedcontent);
      if (!from || !body) throw new DeliveryFormatError("A reply needs Sender (the customer's number) and ReceivedContent");
      const received = text(f.receiveddate);
      const timestamp = timeOf(received) ?? Date.now();
      const replyTo = text(f.requestuniqueid) || undefined;
      // Comtele names no id of the reply: the same reply delivered again hashes to the same id.
      const id = text(f.id) || `mo-${createHash("sha256").update(`${from}\n${received}\n${body}\n${replyTo ?? ""}`).digest("hex").slice(0, 40)}`;
      const name = text(f.sendername) || undefined;
      out.push({ providerMessageId: id, from, text: body, timestamp, ...(name ? { name } : {}), ...(replyTo ? { replyTo } : {}) });
    }
    return out;
  }

  /** One call to the API: its JSON answer, or a ProviderError saying whether anything may have been sent. */
  private async call(method: "GET" | "POST", path: string, body: string | undefined, timeoutMs: number, sending: boolean): Promise<ComteleAnswer> {
    let res: Response;
    try {
      res = await safeFetch(
        `${this.base}${path}`,
        { method, headers: { "auth-key": this.opts.token, "content-type": "application/json", accept: "application/json" }, ...(body ? { body } : {}), signal: AbortSignal.timeout(timeoutMs) },
        this.opts.policy,
      );
    } catch (err) {
      throw failureOfRequest(err, sending, "Comtele");
    }
    const raw = await res.text().catch(() => "");
    if (res.status === 401 || res.status === 403) throw new ProviderError("unauthorized", "Comtele refused the API key", res.status);
    if (res.status === 402) throw new ProviderError("no-credits", "Comtele: no credits", 402);
    if (res.status >= 500) {
      // A gateway in front of Comtele answered (nothing reached it), or Comtele failed midway.
      const kind = res.status === 502 || res.status === 503 || res.status === 504 || !sending ? "unreachable" : "uncertain";
      throw new ProviderError(kind, `Comtele answered ${res.status}`, res.status);
    }
    let answer: ComteleAnswer;
    try {
      answer = raw ? (JSON.parse(raw) as ComteleAnswer) : {};
    } catch {
      throw new ProviderError(sending && res.ok ? "uncertain" : "refused", `Comtele answered ${res.status} with no JSON`, res.status);
    }
    if (!res.ok) throw refusalOf(answer.Message || `HTTP ${res.status}`, res.status);
    return answer;
  }
}

/** Comtele's words for a refusal, as the kind the channel maps to its codes. */
function refusalOf(message: string | undefined, status?: number): ProviderError {
  const said = (message ?? "").trim() || "refused without a reason";
  if (/saldo|cr[eé]dito|credit|balance/i.test(said)) return new ProviderError("no-credits", `Comtele: ${said}`, status);
  if (/n[uú]mero|receiver|destinat|telefone|phone/i.test(said)) return new ProviderError("invalid-number", `Comtele: ${said}`, status);
  if (/auth|chave|api key|token/i.test(said)) return new ProviderError("unauthorized", `Comtele: ${said}`, status);
  return new ProviderError("refused", `Comtele: ${said}`, status);
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/** The objects of a callback: one object or a list of them, as JSON or a form. */
function itemsOf(delivery: WebhookDelivery): Array<Record<string, unknown>> {
  const type = (delivery.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  const raw = delivery.body.toString("utf8");
  if (type === "application/x-www-form-urlencoded") return [readFields(Object.fromEntries(new URLSearchParams(raw)))];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DeliveryFormatError("The callback is not JSON");
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.every((x) => x && typeof x === "object" && !Array.isArray(x))) throw new DeliveryFormatError("The callback holds no objects");
  return list.map((x) => readFields(x));
}
