/**
 * The message side's view of a session (ports.ts SessionPort): every call goes to the
 * session's socket of the moment, and fails with the not-connected error while there is none
 * open (the core's outbox keeps a send that met it).
 */
import type { WAMessage } from "@whiskeysockets/baileys";
import type { ConnectionRef } from "@openatende/plugin-sdk";
import type { SessionPort } from "../ports";
import { baileys } from "./baileys";
import { notConnected } from "./errors";
import type { WASocketLike } from "./socket-factory";
import type { ILogger } from "./wa-logger";

export function sessionPort(ref: ConnectionRef, socket: () => WASocketLike | undefined, logger: ILogger): SessionPort {
  const live = (): WASocketLike => {
    const s = socket();
    if (!s) throw notConnected(ref);
    return s;
  };
  return {
    me() {
      const u = socket()?.user;
      return u?.id ? { id: u.id, ...(u.lid ? { lid: u.lid } : {}), ...(u.name || u.notify ? { name: u.name ?? u.notify } : {}) } : undefined;
    },
    sendMessage: (jid, content, options) => live().sendMessage(jid, content, options),
    readMessages: (keys) => live().readMessages(keys),
    profilePictureUrl: (jid, type, timeoutMs) => live().profilePictureUrl(jid, type, timeoutMs),
    onWhatsApp: (...phones) => live().onWhatsApp(...phones),
    groupMetadata: (jid) => live().groupMetadata(jid),
    groupCreate: (subject, participants) => live().groupCreate(subject, participants),
    async groupUpdatePicture(jid, content) {
      const s = live();
      if (!s.updateProfilePicture) throw new Error("this socket cannot change a group's picture");
      await s.updateProfilePicture(jid, content);
    },
    groupRequestParticipantsList: (jid) => live().groupRequestParticipantsList(jid),
    groupRequestParticipantsUpdate: (jid, participants, action) => live().groupRequestParticipantsUpdate(jid, participants, action),
    async downloadMedia(msg: WAMessage): Promise<Buffer> {
      const s = live();
      return (await baileys().downloadMediaMessage(msg, "buffer", {}, { logger, reuploadRequest: (m) => s.updateMediaMessage(m) })) as Buffer;
    },
  };
}
