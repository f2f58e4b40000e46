/**
 * The seam between a session and the WhatsApp socket. A session never calls makeWASocket
 * itself: it asks a SocketFactory, so tests drive sessions with a fake socket whose events
 * have the library's real shapes, and one test points the real factory at a local WebSocket
 * server.
 *
 * The real factory (BaileysSocketFactory) passes the WhatsApp Web `version` explicitly (never
 * fetched at run time), keeps the phone's notifications (markOnlineOnConnect false), asks for
 * the full history only when the connection imports something, and puts the session's keys
 * behind Baileys' cacheable key store over one bounded cache shared by every session.
 */
import type {
  AnyMessageContent,
  AuthenticationState,
  BaileysEventEmitter,
  BaileysEventMap,
  CacheStore,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  proto,
  WAMessage,
  WAMessageKey,
  WAVersion,
} from "@whiskeysockets/baileys";
import type { ConnectionRef } from "@openatende/plugin-sdk";
import { baileys } from "./baileys";
import type { Clock } from "./clock";
import { proxyAgent } from "./proxy";
import { wantsHistory, type WhatsAppSettings } from "./settings";
import { waLogger, type LineLogger } from "./wa-logger";

/** What the plugin uses of Baileys' WASocket. */
export interface WASocketLike {
  /** Baileys' buffered emitter: `process` sees every event (the deaf-session detector uses it). */
  ev: BaileysEventEmitter & { process?(handler: (events: Partial<BaileysEventMap>) => void | Promise<void>): () => void };
  /** The account, once linked. */
  user?: Contact;
  end(error: Error | undefined): void | Promise<void>;
  logout(msg?: string): Promise<void>;
  requestPairingCode(phoneNumber: string, customPairingCode?: string): Promise<string>;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  profilePictureUrl(jid: string, type?: "preview" | "image", timeoutMs?: number): Promise<string | undefined>;
  onWhatsApp(...phones: string[]): Promise<Array<{ jid: string; exists: boolean }> | undefined>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  groupCreate(subject: string, participants: string[]): Promise<GroupMetadata>;
  updateProfilePicture?(jid: string, content: Buffer): Promise<void>;
  groupRequestParticipantsList(jid: string): Promise<Array<Record<string, string>>>;
  groupRequestParticipantsUpdate(jid: string, participants: string[], action: "approve" | "reject"): Promise<Array<{ status: string; jid: string | undefined }>>;
  updateMediaMessage(msg: WAMessage): Promise<WAMessage>;
}

export interface SocketCreateOptions {
  ref: ConnectionRef;
  /** Creds and the session's durable key store. */
  auth: AuthenticationState;
  /** The session's view of the shared key cache. */
  keyCache: CacheStore;
  settings: WhatsAppSettings;
  /** A sent or seen message's content, for recipients' retry requests. */
  getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined>;
  cachedGroupMetadata?(jid: string): Promise<GroupMetadata | undefined>;
  /** Retry counts kept outside the socket, so they survive reconnects. */
  msgRetryCounterCache: CacheStore;
}

export interface SocketFactory {
  create(opts: SocketCreateOptions): WASocketLike;
}

export interface BaileysFactoryOptions {
  /** WhatsApp Web version; default the one the installed Baileys was released with. */
  version?: WAVersion;
  /** Tests only: a local WebSocket server instead of wss://web.whatsapp.com/ws/chat. */
  waWebSocketUrl?: string;
  connectTimeoutMs?: number;
  keepAliveIntervalMs?: number;
  logLevel?: "warn" | "silent";
  log: LineLogger;
  clock: Clock;
}

export class BaileysSocketFactory implements SocketFactory {
  constructor(private readonly opts: BaileysFactoryOptions) {}

  /** The version sockets are made with (shown in the 405 detail). */
  get version(): WAVersion {
    return this.opts.version ?? baileys().DEFAULT_CONNECTION_CONFIG.version;
  }

  create(o: SocketCreateOptions): WASocketLike {
    const b = baileys();
    const logger = waLogger(this.opts.log, `connection ${o.ref.connectionId}`, this.opts.logLevel ?? "warn", this.opts.clock);
    const agent = o.settings.proxyUrl ? proxyAgent(o.settings.proxyUrl) : undefined;
    const sock = b.makeWASocket({
      version: this.version,
      browser: o.settings.browser,
      auth: { creds: o.auth.creds, keys: b.makeCacheableSignalKeyStore(o.auth.keys, logger, o.keyCache) },
      logger,
      markOnlineOnConnect: false,
      syncFullHistory: wantsHistory(o.settings),
      emitOwnEvents: true,
      getMessage: o.getMessage,
      ...(o.cachedGroupMetadata ? { cachedGroupMetadata: o.cachedGroupMetadata } : {}),
      msgRetryCounterCache: o.msgRetryCounterCache,
      // Status updates and channels (newsletters) are no customer conversation: not even decrypted.
      shouldIgnoreJid: (jid: string) => !!b.isJidStatusBroadcast(jid) || !!b.isJidNewsletter(jid),
      ...(agent ? { agent, fetchAgent: agent } : {}),
      ...(this.opts.waWebSocketUrl ? { waWebSocketUrl: this.opts.waWebSocketUrl } : {}),
      ...(this.opts.connectTimeoutMs ? { connectTimeoutMs: this.opts.connectTimeoutMs } : {}),
      ...(this.opts.keepAliveIntervalMs ? { keepAliveIntervalMs: this.opts.keepAliveIntervalMs } : {}),
    });
    return sock as unknown as WASocketLike;
  }
}
