/**
 * Messages that change another message: reactions (an empty text takes one away), edits
 * (protocolMessage MESSAGE_EDIT, or an editedMessage wrapper around the new content) and
 * revokes ("deleted for everyone", protocolMessage REVOKE). They reach the core as a
 * MessageChangeEvent on the target's provider id, which is the target key's id: the same id
 * the core stored the message under, inbound or sent.
 */
import type { proto, WAMessage } from "@whiskeysockets/baileys";
import { baileys } from "../session/baileys";
import type { MessageChangeEvent } from "@openatende/plugin-sdk";
import type { InboundAction, NormaliseContext } from "../ports";
import { contentTypeOf, editedTextOf } from "./content";
import { resolvePerson, type Person } from "./identity";
import { externalIdOf, msOf } from "./jids";

/** The account's own identity, for its reactions (phone digits; "me" before the session knows it). */
export function selfIdentity(ctx: NormaliseContext): string {
  const me = ctx.session.me();
  return me?.id ? externalIdOf(me.id) : "me";
}

function change(ctx: NormaliseContext, providerMessageId: string, c: MessageChangeEvent["change"], timestamp: number): InboundAction {
  return { kind: "change", change: { ...ctx.ref, providerMessageId, change: c, timestamp } };
}

/**
 * The change a message makes, or a skip for protocol messages that are not about a message
 * the core shows; undefined when the message is ordinary content.
 */
export function changeOf(ctx: NormaliseContext, msg: WAMessage, content: proto.IMessage, type: string, reactor: Person | undefined, timestamp: number): InboundAction | undefined {
  if (type === "protocolMessage") {
    const { normalizeMessageContent } = baileys();
    const Type = baileys().proto.Message.ProtocolMessage.Type;
    const pm = content.protocolMessage!;
    const target = pm.key?.id;
    switch (pm.type) {
      case Type.REVOKE:
        return target ? change(ctx, target, { type: "delete" }, timestamp) : { kind: "skip", reason: "revoke-without-target" };
      case Type.MESSAGE_EDIT: {
        const edited = normalizeMessageContent(pm.editedMessage ?? undefined);
        const body = editedTextOf(edited, contentTypeOf(edited));
        if (!target || body === undefined) return { kind: "skip", reason: "edit-without-text" };
        return change(ctx, target, { type: "edit", body }, msOf(pm.timestampMs) ?? timestamp);
      }
      case Type.HISTORY_SYNC_NOTIFICATION:
        return { kind: "skip", reason: "history-sync-notification" };
      default:
        return { kind: "skip", reason: `protocol:${Type[pm.type ?? -1] ?? pm.type ?? "unknown"}` };
    }
  }
  // An editedMessage wrapper with the new content itself (no protocolMessage inside) edits
  // the message whose key it carries.
  if (msg.message?.editedMessage && msg.key.id) {
    const body = editedTextOf(content, type);
    return body === undefined ? { kind: "skip", reason: "edit-without-text" } : change(ctx, msg.key.id, { type: "edit", body }, timestamp);
  }
  if (type === "reactionMessage") {
    const r = content.reactionMessage!;
    const target = r.key?.id;
    if (!target) return { kind: "skip", reason: "reaction-without-target" };
    const fromMe = !!msg.key.fromMe;
    const by = fromMe ? selfIdentity(ctx) : reactor?.externalId ?? "unknown";
    return change(ctx, target, { type: "reaction", emoji: r.text ?? "", by, ...(fromMe ? { fromMe: true } : {}) }, msOf(r.senderTimestampMs) ?? timestamp);
  }
  return undefined;
}

/**
 * History sync carries the reactions a message received beside it (WebMessageInfo.reactions)
 * rather than as messages of their own.
 */
export async function historyReactions(ctx: NormaliseContext, msg: WAMessage, fallbackTs: number): Promise<InboundAction[]> {
  const out: InboundAction[] = [];
  for (const r of msg.reactions ?? []) {
    if (!msg.key.id || !r.key) continue;
    const fromMe = !!r.key.fromMe;
    let by: string;
    if (fromMe) by = selfIdentity(ctx);
    else {
      const jid = r.key.participant || r.key.remoteJid;
      if (!jid) continue;
      by = (await resolvePerson(ctx, jid)).person.externalId;
    }
    out.push(change(ctx, msg.key.id, { type: "reaction", emoji: r.text ?? "", by, ...(fromMe ? { fromMe: true } : {}) }, msOf(r.senderTimestampMs) ?? fallbackTs));
  }
  return out;
}
