import type { MessageView } from "./model";

/** Actions of the messages service other services call. */
export interface MessagesActions {
  /** The outcome of a message that waited in the outbox: recorded and shown (null: the message is gone). */
  "messages.settle": {
    params: { tenantId: number; id: number; status: "sent" | "failed"; providerId?: string; failReason?: string };
    result: MessageView | null;
  };
}
