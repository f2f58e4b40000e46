/**
 * One Baileys message (messages.upsert, live or offline, or a history-sync message) → what it
 * means for the core: an inbound message, a change of another message, a contact merge, or a
 * skip with its reason. Never nothing: content this plugin does not understand still arrives
 * as a visible placeholder, and whatever is skipped says why (the session side counts
 * "decryption-failed" as a decryption error).
 *
 * Who is who:
 *   1:1 chat     `from` is the other person, whoever wrote (fromMe: the account wrote it on
 *                its phone, and the core stores it as an agent message).
 *   group        `from` is the group (its subject as name), `participant` the member who wrote.
 *   broadcast    a customer's broadcast-list message is a 1:1 message from its sender.
 * The provider id is the key's id: the id the core's replies, reactions, edits and deletes
 * name, and the one Baileys answered when this plugin sent the message.
 */
import type { WAMessage } from "@whiskeysockets/baileys";
import { baileys } from "../session/baileys";
import type { InboundMessage } from "@openatende/plugin-sdk";
import type { InboundAction, NormaliseContext, NormaliseMessage } from "../ports";
import { contentTypeOf, describeContent, SIGNALLING_KINDS } from "./content";
import { fetchMedia } from "./inbound-media";
import { changeOf, historyReactions } from "./inbound-changes";
import { resolvePerson, type LearntMapping, type Person } from "./identity";
import { historyVerdict } from "./history";
import { isMe, secondsToMs } from "./jids";

/** Reasons a message is skipped that the session side acts on. */
export const SKIP_DECRYPTION_FAILED = "decryption-failed";

const skip = (reason: string): InboundAction[] => [{ kind: "skip", reason }];

function mergeAction(ctx: NormaliseContext, learnt: LearntMapping, name?: string): InboundAction {
  return {
    kind: "contact",
    contact: { ...ctx.ref, externalId: learnt.phone, phone: learnt.phone, previousExternalId: learnt.lidExternalId, ...(name ? { name } : {}) },
  };
}

const nameOf = (s: string | null | undefined) => (typeof s === "string" && s.trim() ? s.trim() : undefined);

/** Messages that carry nothing to show, told apart before the content is looked at. */
function envelopeSkip(msg: WAMessage, chat: string): string | undefined {
  const { isJidBroadcast, isJidNewsletter, isJidStatusBroadcast } = baileys();
  const Stub = baileys().proto.WebMessageInfo.StubType;
  if (!msg.key?.id || !chat) return "no-key";
  if (isJidStatusBroadcast(chat)) return "status-broadcast";
  if (isJidNewsletter(chat)) return "newsletter";
  if (msg.messageStubType === Stub.CIPHERTEXT) return SKIP_DECRYPTION_FAILED;
  if (!msg.message) return msg.messageStubType ? `stub:${Stub[msg.messageStubType] ?? msg.messageStubType}` : "empty";
  if (isJidBroadcast(chat) && msg.key.fromMe) return "own-broadcast-list";
  return undefined;
}

export const normaliseMessage: NormaliseMessage = async (ctx, msg) => {
  const { isJidBroadcast, isJidGroup, jidNormalizedUser, normalizeMessageContent } = baileys();
  const key = msg.key ?? {};
  const remote = key.remoteJid ? jidNormalizedUser(key.remoteJid) : "";
  const early = envelopeSkip(msg, remote);
  if (early) return skip(early);

  const content = normalizeMessageContent(msg.message!)!;
  const type = contentTypeOf(content);
  if (!type) return skip(Object.keys(msg.message ?? {}).some((k) => /senderKeyDistributionMessage$/i.test(k)) ? "sender-key-distribution" : "empty");
  if (SIGNALLING_KINDS.has(type)) return skip(`signalling:${type}`);

  const isGroup = !!isJidGroup(remote);
  // A broadcast list's message is its sender's 1:1 message.
  const chat = !isGroup && isJidBroadcast(remote) && key.participant ? jidNormalizedUser(key.participant) : remote;
  const chatAlt = chat === remote ? key.remoteJidAlt : key.participantAlt;
  if (!isGroup && isMe(ctx.session, chat)) return skip("own-chat");

  const now = ctx.now ?? Date.now;
  const timestamp = secondsToMs(msg.messageTimestamp, now());
  let imported: InboundMessage["imported"];
  if (ctx.source === "history") {
    const verdict = historyVerdict(ctx.importSettings, isGroup, timestamp);
    if (!verdict.import) return skip(verdict.reason);
    imported = verdict.closeTicket ? { closeTicket: true } : {};
  }

  const actions: InboundAction[] = [];
  const fromMe = !!key.fromMe;
  const pushName = fromMe ? undefined : nameOf(msg.pushName);

  let from: InboundMessage["from"];
  let participant: Person | undefined;
  if (isGroup) {
    const name = ctx.groups ? await ctx.groups.nameOf(remote) : undefined;
    from = { externalId: remote, ...(name ? { name } : {}) };
    if (!fromMe && key.participant) {
      const r = await resolvePerson(ctx, key.participant, key.participantAlt);
      participant = r.person;
      if (r.learnt) actions.push(mergeAction(ctx, r.learnt, pushName));
    }
  } else {
    const r = await resolvePerson(ctx, chat, chatAlt);
    from = { ...r.person, ...(pushName ? { name: pushName } : {}) };
    if (r.learnt) actions.push(mergeAction(ctx, r.learnt, pushName));
  }

  const changed = changeOf(ctx, msg, content, type, isGroup ? participant : from, timestamp);
  // A merge learnt from a reaction, an edit or even a skipped protocol message still counts.
  if (changed) return [...actions, changed];

  const described = describeContent(content, type, key.id!);
  const inbound: InboundMessage = { ...ctx.ref, providerMessageId: key.id!, timestamp, from };
  if (described.replyToProviderId) inbound.replyToProviderId = described.replyToProviderId;
  if (described.location) inbound.location = described.location;
  if (described.contactCard) inbound.contactCard = described.contactCard;
  let body = described.body;
  if (described.media) {
    const fetched = await fetchMedia(ctx.session, msg, described.media);
    if (fetched.ok) inbound.media = fetched.media;
    else body = body ? `${body}\n${fetched.note}` : fetched.note;
  }
  if (body !== undefined) inbound.body = body;
  if (isGroup) inbound.isGroup = true;
  if (fromMe) inbound.fromMe = true;
  if (participant) inbound.participant = { ...participant, ...(pushName ? { name: pushName } : {}) };
  if (imported) inbound.imported = imported;
  actions.push({ kind: "inbound", message: inbound });

  if (ctx.source === "history") actions.push(...(await historyReactions(ctx, msg, timestamp)));
  return actions;
};
