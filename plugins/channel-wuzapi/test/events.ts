/**
 * wuzapi's webhook events as its Go code builds them (wmiau.go: postmap["type"], ["event"]
 * holding whatsmeow's events.Message / events.Receipt marshalled by encoding/json, and the
 * media fields beside them): field names and order of whatsmeow's structs (types.MessageInfo,
 * types.MessageSource, events.Receipt) and the waE2E json tags (conversation,
 * extendedTextMessage, contextInfo.stanzaID, protocolMessage.key.ID, enums as numbers).
 */
import { randomBytes } from "node:crypto";

export interface MessageSpec {
  id?: string;
  /** The chat: the customer's JID, or a group's. */
  chat: string;
  /** Who wrote it (default: the chat; in groups a member). */
  sender?: string;
  fromMe?: boolean;
  isGroup?: boolean;
  pushName?: string;
  /** ms; default now. */
  timestamp?: number;
  /** The waE2E.Message (after whatsmeow's unwrapping). */
  message: Record<string, unknown>;
  /** What wuzapi adds beside the event: the downloaded file (base64, mimeType, fileName) or s3. */
  extra?: Record<string, unknown>;
  senderAlt?: string;
  recipientAlt?: string;
  edit?: string;
}

export const newMessageId = () => `3EB0${randomBytes(10).toString("hex").toUpperCase()}`;

/** Go's time.Time in JSON: RFC 3339 with the server's zone offset (São Paulo here). */
export function goTime(ms: number): string {
  return new Date(ms - 3 * 3600_000).toISOString().replace("Z", "-03:00");
}

export function messageEvent(spec: MessageSpec): Record<string, unknown> {
  const id = spec.id ?? newMessageId();
  const isGroup = spec.isGroup ?? spec.chat.endsWith("@g.us");
  const sender = spec.sender ?? spec.chat;
  return {
    type: "Message",
    event: {
      Info: {
        Chat: spec.chat,
        Sender: sender.replace("@", ":0@").replace(":0@g.us", "@g.us"),
        IsFromMe: !!spec.fromMe,
        IsGroup: isGroup,
        AddressingMode: spec.senderAlt ? "lid" : "",
        SenderAlt: spec.senderAlt ?? "",
        RecipientAlt: spec.recipientAlt ?? "",
        BroadcastListOwner: "",
        BroadcastRecipients: null,
        ID: id,
        ServerID: 0,
        Type: Object.keys(spec.message).some((k) => k.endsWith("Message") && k !== "extendedTextMessage") ? "media" : "text",
        PushName: spec.pushName ?? "",
        Timestamp: goTime(spec.timestamp ?? Date.now()),
        Category: "",
        Multicast: false,
        MediaType: "",
        Edit: spec.edit ?? "",
        MsgBotInfo: { EditType: "", EditTargetID: "", EditSenderTimestampMS: "0001-01-01T00:00:00Z" },
        MsgMetaInfo: { TargetID: "", TargetSender: "", DeprecatedLIDSession: null, ThreadMessageID: "", ThreadMessageSenderJID: "" },
        VerifiedName: null,
        DeviceSentMeta: spec.fromMe ? { DestinationJID: spec.chat, Phash: "" } : null,
      },
      Message: spec.message,
      IsEphemeral: false,
      IsViewOnce: false,
      IsViewOnceV2: false,
      IsViewOnceV2Extension: false,
      IsDocumentWithCaption: false,
      IsLottieSticker: false,
      IsBotInvoke: false,
      IsEdit: spec.edit === "1",
      SourceWebMsg: null,
      UnavailableRequestID: "",
      RetryCount: 0,
      NewsletterMeta: null,
      RawMessage: spec.message,
    },
    ...(spec.extra ?? {}),
  };
}

/** A ReadReceipt event: state "Delivered", "Read" or "ReadSelf" as wuzapi names them. */
export function receiptEvent(spec: { chat: string; sender?: string; ids: string[]; state: "Delivered" | "Read" | "ReadSelf"; isGroup?: boolean; timestamp?: number }): Record<string, unknown> {
  const type = spec.state === "Delivered" ? "" : spec.state === "Read" ? "read" : "read-self";
  return {
    type: "ReadReceipt",
    state: spec.state,
    event: {
      Chat: spec.chat,
      Sender: spec.sender ?? spec.chat,
      IsFromMe: spec.state === "ReadSelf",
      IsGroup: spec.isGroup ?? spec.chat.endsWith("@g.us"),
      AddressingMode: "",
      SenderAlt: "",
      RecipientAlt: "",
      BroadcastListOwner: "",
      BroadcastRecipients: null,
      MessageIDs: spec.ids,
      Timestamp: goTime(spec.timestamp ?? Date.now()),
      Type: type,
      MessageSender: "",
    },
  };
}

/** protocolMessage.type values of waE2E (enums go out as numbers). */
export const PROTOCOL = { REVOKE: 0, MESSAGE_EDIT: 14 } as const;
