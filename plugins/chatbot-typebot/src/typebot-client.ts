/**
 * The Typebot chat API, both generations (INTEGRATIONS.md §1), through safeFetch (the outbound
 * URL policy checks every hop):
 *
 * - "latest": POST {viewer}/api/v1/typebots/{publicId}/startChat → {sessionId, messages, input?,
 *   clientSideActions?}; then POST {viewer}/api/v1/sessions/{sessionId}/continueChat {message}.
 * - "legacy" (deprecated, still served): POST {viewer}/api/v1/sendMessage with
 *   {startParams:{publicId, prefilledVariables}, message?} to start, {sessionId, message} after.
 *
 * Every failure is a TypebotError: `gone` when Typebot says the session no longer exists or
 * expired (404 on continue: start again), otherwise an HTTP status or a network/timeout error.
 */
import { safeFetch, type OutboundPolicy } from "@openatende/plugin-sdk";

export type ApiGeneration = "latest" | "legacy";

export interface TypebotTarget {
  viewerUrl: string;
  apiToken: string | null;
  generation: ApiGeneration;
  policy: OutboundPolicy;
  /** Per call (default 15 s). */
  timeoutMs?: number;
}

export interface ChatBubble {
  id: string;
  type: string;
  content?: Record<string, unknown>;
}

export interface ChoiceItem {
  id: string;
  content?: string;
  value?: string;
  title?: string;
}

export interface ChatInput {
  id: string;
  type: string;
  items?: ChoiceItem[];
  options?: Record<string, unknown>;
}

export interface ClientSideAction {
  type: string;
  lastBubbleBlockId?: string;
  expectsDedicatedReply?: boolean;
  wait?: { secondsToWaitFor?: number | string };
}

export interface ChatResponse {
  sessionId?: string;
  messages: ChatBubble[];
  input?: ChatInput | null;
  clientSideActions?: ClientSideAction[];
}

export type FailureKind = "http" | "network" | "timeout" | "gone" | "invalid";

export class TypebotError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "TypebotError";
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

async function post(target: TypebotTarget, path: string, body: unknown, continuing: boolean): Promise<ChatResponse> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (target.apiToken) headers.authorization = `Bearer ${target.apiToken}`;
  const timeoutMs = target.timeoutMs ?? 15_000;
  let res: Response;
  let text: string;
  try {
    res = await safeFetch(`${trimSlash(target.viewerUrl)}${path}`, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) }, target.policy);
    text = await res.text();
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === "ERR_URL_NOT_ALLOWED") throw new TypebotError("invalid", e.message);
    if (e.name === "TimeoutError" || e.name === "AbortError") throw new TypebotError("timeout", `no answer in ${timeoutMs} ms`);
    throw new TypebotError("network", e.code ? `${e.code}: ${e.message}` : e.message);
  }
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const message = typeof json?.message === "string" ? json.message : `HTTP ${res.status}`;
    // A session Typebot deleted (flow ended) or expired: the caller starts a new one.
    if (continuing && res.status === 404 && !/typebot not found/i.test(message)) throw new TypebotError("gone", message, 404);
    throw new TypebotError("http", message, res.status);
  }
  if (!json || !Array.isArray(json.messages)) throw new TypebotError("invalid", "the answer is not a Typebot chat response", res.status);
  return json as unknown as ChatResponse;
}

export interface StartArgs {
  publicId: string;
  message?: string;
  prefilledVariables: Record<string, string>;
  /** Only registers the session without running the bot (the settings' test). */
  isOnlyRegistering?: boolean;
}

export function startChat(target: TypebotTarget, a: StartArgs): Promise<ChatResponse> {
  const message = a.message ? { type: "text", text: a.message } : undefined;
  if (target.generation === "legacy") {
    return post(target, "/api/v1/sendMessage", { startParams: { publicId: a.publicId, prefilledVariables: a.prefilledVariables, ...(a.isOnlyRegistering ? { isOnlyRegistering: true } : {}) }, ...(message ? { message: a.message } : {}) }, false);
  }
  return post(
    target,
    `/api/v1/typebots/${encodeURIComponent(a.publicId)}/startChat`,
    { prefilledVariables: a.prefilledVariables, textBubbleContentFormat: "richText", ...(message ? { message } : {}), ...(a.isOnlyRegistering ? { isOnlyRegistering: true } : {}) },
    false,
  );
}

export function continueChat(target: TypebotTarget, sessionId: string, message: string): Promise<ChatResponse> {
  if (target.generation === "legacy") return post(target, "/api/v1/sendMessage", { sessionId, message }, true);
  return post(target, `/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message: { type: "text", text: message }, textBubbleContentFormat: "richText" }, true);
}
