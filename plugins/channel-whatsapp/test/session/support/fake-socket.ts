/**
 * A stand-in for Baileys' socket with the library's own shapes: its `ev` is Baileys' own
 * buffered event emitter (makeEventBuffer), messages are built with the library's protobuf
 * types, close reasons are the Booms Baileys ends a socket with. Tests drive it the way
 * WhatsApp drives the real one (a QR, an open, a close with a code, an upsert) and look at
 * what the session did with it (ended, listeners left, pairing codes asked, messages sent).
 */
import { Boom } from "@hapi/boom";
import type { AnyMessageContent, BaileysEventMap, Contact, GroupMetadata, MiscMessageGenerationOptions, WAMessage, WAMessageKey } from "@whiskeysockets/baileys";
// The library through the plugin's loader (not a static import), so the benchmark's plugin
// node can use these fakes under tsx as well as jest (see src/session/baileys.ts).
import { baileys } from "../../../src/session/baileys";
import type { SocketCreateOptions, SocketFactory, WASocketLike } from "../../../src/session/socket-factory";

const silent = { level: "silent", child: () => silent, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

type Ev = WASocketLike["ev"];

/** Baileys' emitter, counting the listeners each event has (the real one does not say). */
function countingEmitter(onListen: (event: string) => void): Ev & { listeners(): number } {
  const inner = baileys().makeEventBuffer(silent as never);
  const counts = new Map<string, number>();
  const ev = Object.create(inner) as Ev & { listeners(): number };
  ev.on = ((event: keyof BaileysEventMap, fn: (d: unknown) => void) => {
    counts.set(event, (counts.get(event) ?? 0) + 1);
    inner.on(event, fn as never);
    onListen(event);
  }) as Ev["on"];
  ev.removeAllListeners = ((event?: keyof BaileysEventMap) => {
    if (event) counts.delete(event);
    else counts.clear();
    inner.removeAllListeners(event as keyof BaileysEventMap);
  }) as Ev["removeAllListeners"];
  ev.emit = ((event: keyof BaileysEventMap, data: unknown) => inner.emit(event, data as never)) as Ev["emit"];
  ev.process = (handler) => {
    counts.set("*", (counts.get("*") ?? 0) + 1);
    const off = inner.process(handler);
    return () => {
      counts.set("*", (counts.get("*") ?? 1) - 1);
      off();
    };
  };
  ev.listeners = () => [...counts.values()].reduce((a, b) => a + b, 0);
  return ev;
}

let ids = 0;
export const waId = () => `3EB0${(++ids).toString(16).toUpperCase().padStart(18, "0")}`;

export class FakeSocket implements WASocketLike {
  readonly ev = countingEmitter((event) => {
    if (event === "connection.update" && this.whenListened) {
      const then = this.whenListened;
      this.whenListened = undefined;
      then(this);
    }
  });
  /** Runs once, as soon as someone listens to connection.update (a socket that opens at once). */
  whenListened?: (s: FakeSocket) => void;
  user?: Contact;
  ended = false;
  endedWith?: Error;
  loggedOut = false;
  readonly pairingRequests: string[] = [];
  readonly sent: Array<{ jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions; message: WAMessage }> = [];
  pairingCode = "K7QX2MPA";
  /** Makes sendMessage fail with this error (once). */
  failNextSend?: Error;

  constructor(
    readonly opts: SocketCreateOptions,
    readonly index: number,
    private readonly now: () => number,
  ) {}

  get listeners(): number {
    return this.ev.listeners();
  }

  // --- what WhatsApp does ------------------------------------------------------------------------

  qr(text = `2@${this.index}-${Math.random().toString(36).slice(2)}`): void {
    this.ev.emit("connection.update", { qr: text });
  }

  open(user: Contact = { id: "5511900000000:3@s.whatsapp.net", lid: "88000000000001:3@lid", name: "Loja" }): void {
    this.user = user;
    this.ev.emit("connection.update", { connection: "open" });
  }

  /** The pairing finished on the phone: creds registered, then WhatsApp asks for a restart (515). */
  paired(me: Contact = { id: "5511900000000:3@s.whatsapp.net", lid: "88000000000001:3@lid", name: "Loja" }): void {
    this.ev.emit("creds.update", { me, registered: true, platform: "smba" });
    this.ev.emit("connection.update", { isNewLogin: true, qr: undefined });
  }

  /** The server (or the network) closes the socket with a code, as Baileys' end() reports it. */
  close(code: number, message = "closed"): void {
    this.end(new Boom(message, { statusCode: code }));
  }

  upsert(messages: WAMessage[], type: "notify" | "append" = "notify"): void {
    this.ev.emit("messages.upsert", { messages, type });
  }

  // --- WASocketLike ------------------------------------------------------------------------------

  end(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.endedWith = error;
    this.ev.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date(this.now()) } });
    this.ev.removeAllListeners("connection.update");
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
    this.end(new Boom("Intentional Logout", { statusCode: 401 }));
  }

  async requestPairingCode(phone: string): Promise<string> {
    if (this.ended) throw new Boom("Connection Closed", { statusCode: 428 });
    this.pairingRequests.push(phone);
    return this.pairingCode;
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage> {
    if (this.ended) throw new Boom("Connection Closed", { statusCode: 428 });
    if (this.failNextSend) {
      const err = this.failNextSend;
      this.failNextSend = undefined;
      throw err;
    }
    const text = (content as { text?: string }).text;
    const { proto } = baileys();
    const message = proto.WebMessageInfo.fromObject({
      key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? waId() },
      message: text !== undefined ? { conversation: text } : { conversation: "[media]" },
      messageTimestamp: Math.floor(this.now() / 1000),
      status: proto.WebMessageInfo.Status.PENDING,
    }) as WAMessage;
    this.sent.push({ jid, content, options, message });
    // Baileys (emitOwnEvents) echoes our own send as an "append" upsert on the next tick.
    process.nextTick(() => this.upsert([message], "append"));
    return message;
  }

  /** The keys of each readMessages call (read receipts). */
  readonly readKeys: WAMessageKey[][] = [];
  /** Numbers (digits) without an account: onWhatsApp leaves them out of its answer, as Baileys does. */
  readonly notOnWhatsApp = new Set<string>();

  async readMessages(keys: WAMessageKey[]): Promise<void> {
    this.readKeys.push(keys);
  }
  async profilePictureUrl(jid: string): Promise<string | undefined> {
    return `https://pps.whatsapp.net/v/${encodeURIComponent(jid)}.jpg`;
  }
  async onWhatsApp(...phones: string[]): Promise<Array<{ jid: string; exists: boolean }>> {
    return phones.filter((p) => !this.notOnWhatsApp.has(p.replace(/\D/g, ""))).map((p) => ({ jid: `${p.replace(/\D/g, "")}@s.whatsapp.net`, exists: true }));
  }
  async groupMetadata(jid: string): Promise<GroupMetadata> {
    return { id: jid, subject: "Grupo", participants: [], owner: undefined } as unknown as GroupMetadata;
  }
  async groupCreate(subject: string): Promise<GroupMetadata> {
    return { id: "120363000000000009@g.us", subject, participants: [] } as unknown as GroupMetadata;
  }
  async groupRequestParticipantsList(): Promise<Array<Record<string, string>>> {
    return [];
  }
  async groupRequestParticipantsUpdate(): Promise<Array<{ status: string; jid: string | undefined }>> {
    return [];
  }
  async updateMediaMessage(msg: WAMessage): Promise<WAMessage> {
    return msg;
  }
}

export class FakeSocketFactory implements SocketFactory {
  readonly sockets: FakeSocket[] = [];
  /** Called with each new socket once the session attached to it (next tick). */
  onCreate?: (s: FakeSocket) => void;
  /** Called with each new socket as soon as the session listens to its connection updates. */
  onListen?: (s: FakeSocket) => void;

  constructor(private readonly now: () => number = Date.now) {}

  create(opts: SocketCreateOptions): FakeSocket {
    const s = new FakeSocket(opts, this.sockets.length, this.now);
    this.sockets.push(s);
    if (this.onListen) s.whenListened = this.onListen;
    // Right after the session attached its listeners (they attach synchronously after create).
    if (this.onCreate) process.nextTick(() => this.onCreate?.(s));
    return s;
  }

  get live(): FakeSocket[] {
    return this.sockets.filter((s) => !s.ended);
  }

  get last(): FakeSocket {
    const s = this.sockets[this.sockets.length - 1];
    if (!s) throw new Error("no socket was created");
    return s;
  }

  /** Sockets of one connection. */
  of(connectionId: number): FakeSocket[] {
    return this.sockets.filter((s) => s.opts.ref.connectionId === connectionId);
  }
}

/** A text message from a customer, as Baileys upserts it. */
export function textMessage(o: { id?: string; from?: string; text?: string; fromMe?: boolean; at?: number }): WAMessage {
  const { proto } = baileys();
  return proto.WebMessageInfo.fromObject({
    key: { remoteJid: o.from ?? "5511988887777@s.whatsapp.net", fromMe: !!o.fromMe, id: o.id ?? waId() },
    message: { conversation: o.text ?? "olá" },
    messageTimestamp: Math.floor((o.at ?? Date.now()) / 1000),
    pushName: "Cliente",
  }) as WAMessage;
}

/** A message that failed to decrypt (Bad MAC), as Baileys upserts its placeholder. */
export function undecryptable(o: { id?: string; from?: string; at?: number }): WAMessage {
  const { proto } = baileys();
  return proto.WebMessageInfo.fromObject({
    key: { remoteJid: o.from ?? "5511988887777@s.whatsapp.net", fromMe: false, id: o.id ?? waId() },
    messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
    messageStubParameters: ["Bad MAC"],
    messageTimestamp: Math.floor((o.at ?? Date.now()) / 1000),
  }) as WAMessage;
}
