/**
 * A new WhatsApp group from the Groups tab (spec §5 Group): a name, at least one participant
 * and at most 1,023 (spec §9), an optional photo of at most 5 MB that is an image. Everything
 * is checked before WhatsApp is asked, so a refused request never leaves half a group behind.
 * A photo WhatsApp refuses after the group exists does not undo the group: the answer says so.
 */
import type { GroupMetadata } from "@whiskeysockets/baileys";
import type { SessionPort } from "../ports";
import { waError } from "../messages/errors";
import { externalIdOf, jidOfExternalId, phoneDigitsOf } from "../messages/jids";

export const GROUP_NAME_MAX = 100;
export const GROUP_PARTICIPANTS_MAX = 1023;
export const GROUP_PICTURE_MAX_BYTES = 5 * 1024 * 1024;

export interface NewGroup {
  name: string;
  /** Phone numbers (digits, "+" and separators tolerated) or contract identities ("<lid>@lid"). */
  participants: string[];
  picture?: { data: Buffer; mimeType: string; fileName?: string };
}

export interface CreatedGroup {
  /** The group's JID: its contract identity. */
  externalId: string;
  name: string;
  /** Members as contract identities (the creator included). */
  participants: string[];
  /** False when a photo was given but WhatsApp did not take it (the group exists anyway). */
  pictureSet?: boolean;
}

/** The image kinds a group photo may be, told by their first bytes (a declared type can lie). */
export function imageKindOf(data: Buffer): "jpeg" | "png" | "webp" | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (data.length >= 12 && data.toString("latin1", 0, 4) === "RIFF" && data.toString("latin1", 8, 12) === "WEBP") return "webp";
  return undefined;
}

/** The participants' JIDs, each once; the first invalid one is refused by name. */
function participantJids(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [i, p] of list.entries()) {
    const jid = typeof p === "string" ? jidOfExternalId(p) : undefined;
    if (!jid || jid.endsWith("@g.us") || !(phoneDigitsOf(jid) || jid.endsWith("@lid")))
      throw waError("ERR_CONTACT_NUMBER_INVALID", `"${p}" is not a WhatsApp number`, { field: `participants[${i}]`, value: p });
    if (!seen.has(jid)) {
      seen.add(jid);
      out.push(jid);
    }
  }
  return out;
}

export function checkNewGroup(g: NewGroup): { name: string; jids: string[] } {
  const name = typeof g?.name === "string" ? g.name.trim() : "";
  if (!name) throw waError("ERR_VALIDATION", "The group needs a name", { field: "name", rule: "required" });
  if (name.length > GROUP_NAME_MAX) throw waError("ERR_VALIDATION", `A group name has at most ${GROUP_NAME_MAX} characters`, { field: "name", rule: "max", max: GROUP_NAME_MAX });
  const list = Array.isArray(g.participants) ? g.participants : [];
  if (!list.length) throw waError("ERR_REQUIRED_CONTACT", "A group needs at least one participant", { field: "participants" });
  const jids = participantJids(list);
  if (jids.length > GROUP_PARTICIPANTS_MAX)
    throw waError("ERR_GROUP_PARTICIPANT_LIMIT", `A group has at most ${GROUP_PARTICIPANTS_MAX} participants`, { field: "participants", count: jids.length, max: GROUP_PARTICIPANTS_MAX });
  if (g.picture) {
    const { data, mimeType } = g.picture;
    if (!Buffer.isBuffer(data) || !data.length) throw waError("ERR_INVALID_IMAGE_FORMAT", "The group photo is empty", { field: "picture" });
    if (data.length > GROUP_PICTURE_MAX_BYTES)
      throw waError("ERR_GROUP_PICTURE_TOO_LARGE", "A group photo is at most 5 MB", { field: "picture", size: data.length, max: GROUP_PICTURE_MAX_BYTES });
    if (!/^image\//i.test(mimeType ?? "") || !imageKindOf(data))
      throw waError("ERR_INVALID_IMAGE_FORMAT", "The group photo must be an image (JPEG, PNG or WebP)", { field: "picture", mimeType });
  }
  return { name, jids };
}

export async function createGroup(session: SessionPort, g: NewGroup): Promise<CreatedGroup> {
  const { name, jids } = checkNewGroup(g);
  const meta: GroupMetadata = await session.groupCreate(name, jids);
  const created: CreatedGroup = {
    externalId: externalIdOf(meta.id),
    name: meta.subject || name,
    participants: (meta.participants ?? []).map((p) => externalIdOf(p.id)),
  };
  if (g.picture) {
    if (!session.groupUpdatePicture) created.pictureSet = false;
    else {
      try {
        await session.groupUpdatePicture(meta.id, g.picture.data);
        created.pictureSet = true;
      } catch {
        created.pictureSet = false;
      }
    }
  }
  return created;
}
