import { createHash } from "node:crypto";
import type { MessageParticipant } from "@openatende/contracts/realtime";

/**
 * Spec §6 hideContactInfo for the members of a group: a message names the member who wrote it
 * by their channel address (a WhatsApp address is their phone number) and phone. Hidden, a
 * member keeps their name and a stable token in place of the address ("hidden:" and a digest
 * of it: the same member is the same token, so the chat still tells members apart), without
 * the phone.
 */
export const HIDDEN_PARTICIPANT_PREFIX = "hidden:";

export function hideParticipant(p: MessageParticipant | null | undefined): MessageParticipant | null {
  if (!p) return null;
  const token = createHash("sha256").update(String(p.externalId)).digest("hex").slice(0, 12);
  return { externalId: `${HIDDEN_PARTICIPANT_PREFIX}${token}`, ...(p.name ? { name: p.name } : {}) };
}

/** A message (or anything naming a participant) with its participant hidden. */
export function withHiddenParticipant<M extends { participant?: MessageParticipant | null }>(m: M): M {
  return m.participant ? { ...m, participant: hideParticipant(m.participant) } : m;
}
