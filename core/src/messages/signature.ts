import type { Ctx } from "../types";
import { call } from "../bus/call";

/** Spec §6: the tenant's admins force the signature on or off; "user" leaves it to each agent. */
export type SignatureMode = "user" | "on" | "off";

/**
 * The agent's signature (spec §6): their name in bold on a line of its own above what they
 * write, the way WhatsApp shows `*bold*`, as the peers of the product do.
 *
 * Decided here, once, for every channel: the body is signed before it is stored, so the stored
 * body, what the channel sends, what the agents see and what a later edit starts from are the
 * same text. Only an agent's own text is signed (and a media's caption): not a forwarded copy
 * (it keeps its first author's words), not a GIF or sticker without caption.
 */
export function signed(body: string, name: string): string {
  const prefix = `*${name.trim()}:*\n`;
  return body.startsWith(prefix) ? body : prefix + body;
}

/** Whether the caller's messages are signed now: the tenant's mode, else the agent's own toggle (off until they turn it on). */
export async function signatureOf(ctx: Ctx, tenantId: number): Promise<{ mode: SignatureMode; enabled: boolean; name: string }> {
  const me = ctx.meta.user!;
  const [settings, user] = await Promise.all([call(ctx, "settings.forTenant", { tenantId }), call(ctx, "users.getInternal", { id: me.id })]);
  const mode = (["user", "on", "off"].includes(settings.signature as string) ? settings.signature : "user") as SignatureMode;
  const enabled = mode === "on" ? true : mode === "off" ? false : user?.configs?.signature === true;
  return { mode, enabled, name: user?.name ?? "" };
}

/** The body as it is stored and sent: signed when the caller's signature is on and there is text to sign. */
export async function withSignature(ctx: Ctx, tenantId: number, body: string): Promise<string> {
  if (!body) return body;
  const s = await signatureOf(ctx, tenantId);
  return s.enabled && s.name.trim() ? signed(body, s.name) : body;
}
