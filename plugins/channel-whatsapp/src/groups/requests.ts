/**
 * Join requests of a group that asks admins to approve new members (spec §4 Other): the list,
 * and approving or rejecting some of them. WhatsApp answers per person; one it refuses (the
 * request was withdrawn, the account is not an admin) is reported, not thrown, so the others
 * still count.
 */
import type { SessionPort } from "../ports";
import { waError } from "../messages/errors";
import { externalIdOf, isGroupJid, jidOfExternalId, phoneDigitsOf } from "../messages/jids";

export interface JoinRequest {
  externalId: string;
  phone?: string;
  /** ms since the epoch, when WhatsApp said. */
  requestedAt?: number;
  /** How they asked: "invite_link", "linked_group_join", "non_admin_add". */
  method?: string;
}

export interface JoinRequestResult {
  externalId: string;
  ok: boolean;
  /** WhatsApp's error code when not ok. */
  error?: string;
}

function groupJid(externalId: string): string {
  const jid = jidOfExternalId(externalId);
  if (!jid || !isGroupJid(jid)) throw waError("ERR_VALIDATION", `"${externalId}" is not a WhatsApp group`, { field: "group", value: externalId });
  return jid;
}

export async function listJoinRequests(session: SessionPort, group: string): Promise<JoinRequest[]> {
  const rows = await session.groupRequestParticipantsList(groupJid(group));
  return (rows ?? [])
    .filter((r) => typeof r?.jid === "string" && r.jid)
    .map((r) => {
      const phone = phoneDigitsOf(r.jid) ?? phoneDigitsOf(r.phone_number);
      const at = Number(r.request_time);
      return {
        externalId: phone ?? externalIdOf(r.jid),
        ...(phone ? { phone } : {}),
        ...(Number.isFinite(at) && at > 0 ? { requestedAt: at * 1000 } : {}),
        ...(r.request_method ? { method: r.request_method } : {}),
      };
    });
}

/**
 * Approves or rejects requests. `participants` are contract identities as listJoinRequests
 * answered them; a phone identity is sent as the JID WhatsApp listed when that was a LID.
 */
export async function answerJoinRequests(session: SessionPort, group: string, participants: string[], action: "approve" | "reject"): Promise<JoinRequestResult[]> {
  const gid = groupJid(group);
  if (action !== "approve" && action !== "reject") throw waError("ERR_VALIDATION", "The action is approve or reject", { field: "action", value: action });
  if (!Array.isArray(participants) || !participants.length) throw waError("ERR_REQUIRED_CONTACT", "Choose at least one request", { field: "participants" });

  // WhatsApp names requesters by the JID of its list (a LID in LID groups): map the
  // identities back to those JIDs.
  const listed = await session.groupRequestParticipantsList(gid);
  const byIdentity = new Map<string, string>();
  for (const r of listed ?? []) {
    if (typeof r?.jid !== "string") continue;
    byIdentity.set(externalIdOf(r.jid), r.jid);
    const phone = phoneDigitsOf(r.phone_number);
    if (phone) byIdentity.set(phone, r.jid);
  }
  const jids: string[] = [];
  const back = new Map<string, string>();
  for (const [i, p] of participants.entries()) {
    const jid = byIdentity.get(p) ?? jidOfExternalId(p);
    if (!jid) throw waError("ERR_CONTACT_NUMBER_INVALID", `"${p}" is not a WhatsApp number`, { field: `participants[${i}]`, value: p });
    jids.push(jid);
    back.set(externalIdOf(jid), p);
  }
  const answers = await session.groupRequestParticipantsUpdate(gid, jids, action);
  return jids.map((jid) => {
    const a = (answers ?? []).find((x) => x.jid && externalIdOf(x.jid) === externalIdOf(jid));
    const externalId = back.get(externalIdOf(jid)) ?? externalIdOf(jid);
    if (!a) return { externalId, ok: false, error: "no-answer" };
    return a.status === "200" ? { externalId, ok: true } : { externalId, ok: false, error: a.status };
  });
}
