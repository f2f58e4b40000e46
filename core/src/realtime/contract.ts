import type { RealtimePush } from "./push";

export type { RealtimePush };

/** Actions of the realtime service (tests and health ask them). */
export interface RealtimeActions {
  /** Sockets connected to the node that answers. */
  "realtime.stats": { params: Record<string, never> | undefined; result: { sockets: number } };
}

export interface RealtimeEvents {
  /** Balanced: one gateway's realtime service sends `event` to the sockets in `rooms` (pushRealtime). */
  "realtime.push": RealtimePush;
}
