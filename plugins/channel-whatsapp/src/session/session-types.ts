/** What a Session is made with: its options (with the defaults) and what it depends on. */
import type { AuthenticationCreds, BaileysEventMap, CacheStore, GroupMetadata, proto, WAMessageKey } from "@whiskeysockets/baileys";
import type { ConnectionRef, StatusEvent } from "@openatende/plugin-sdk";
import type { AuthStore } from "../stores/auth-state";
import type { Clock } from "./clock";
import type { BackoffOptions } from "./close-policy";
import type { WhatsAppSettings } from "./settings";
import type { SocketFactory, WASocketLike } from "./socket-factory";

export interface SessionOptions {
  /** QR codes shown per link attempt before the session stops and waits for the user (default 3). */
  maxQrRounds: number;
  /** Baileys' connect timeout (default 20 s); stuck in connecting is twice that unless given. */
  connectTimeoutMs: number;
  stuckConnectingMs?: number;
  /** Open but no event at all for this long → the socket is ended and built again (default 30 min). */
  deafMs: number;
  backoff: BackoffOptions;
  /** The one retry after a 440 (replaced) while this node holds the lock (default 60 s). */
  replacedRetryMs: number;
  /** Open this long without trouble: a later 440 may be retried once again (default 10 min). */
  stableMs: number;
  /** How long a pairing-code request waits for WhatsApp's code (default 30 s). */
  pairingCodeTimeoutMs: number;
}

export const DEFAULT_SESSION_OPTIONS: SessionOptions = {
  maxQrRounds: 3,
  connectTimeoutMs: 20_000,
  deafMs: 30 * 60_000,
  backoff: { baseMs: 2000, maxMs: 60_000 },
  replacedRetryMs: 60_000,
  stableMs: 10 * 60_000,
  pairingCodeTimeoutMs: 30_000,
};

/** Registers a handler on the current socket; it runs only while that socket is the session's. */
export type OnEvent = <E extends keyof BaileysEventMap>(event: E, fn: (data: BaileysEventMap[E]) => void | Promise<void>) => void;

export interface SessionDeps {
  ref: ConnectionRef;
  settings: WhatsAppSettings;
  factory: SocketFactory;
  auth: AuthStore;
  keyCache: CacheStore;
  retryCache: CacheStore;
  clock: Clock;
  random(): number;
  options: SessionOptions;
  nodeId: string;
  /** Who holds the session's lock (asked on 440): this node, another one, or nobody. */
  lockState(): Promise<"mine" | "other" | "none">;
  /** A status change, for the core. */
  report(s: StatusEvent): void;
  /** Attaches the message side's handlers to a new socket (events.ts). */
  route(sock: WASocketLike, on: OnEvent): void;
  getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined>;
  cachedGroupMetadata?(jid: string): Promise<GroupMetadata | undefined>;
  /** The session belongs to another node now (a newer fence, or its lock): the manager drops it without a word. */
  onFencedOff?(): void;
  log: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
}
