import type { OutboxOp, OutboxPayload } from "./outbox";

/** Actions of the outbox service (outbox.service.ts) other services call. */
export interface OutboxActions {
  /** Whether a new message of the connection (with messageId: a change of that message) must wait behind the outbox. */
  "outbox.waits": { params: { connectionId: number; messageId?: number }; result: boolean };
  "outbox.enqueue": {
    params: { tenantId: number; connectionId: number; ticketId: number; messageId: number; op?: OutboxOp; payload: OutboxPayload; reason?: string };
    result: { waiting: true };
  };
  /** `waiting: null`: the connection's lock stayed busy. */
  "outbox.revise": { params: { connectionId: number; messageId: number; body?: string; drop?: boolean }; result: { waiting: boolean | null; dropped?: boolean } };
  "outbox.list": {
    params: { connectionId?: number };
    result: Array<{ messageId: number; op: OutboxOp; ticketId: number; connectionId: number; attempts: number; lastError: string | null }>;
  };
  "outbox.flush": { params: { connectionId: number }; result: { sent: number } };
}
