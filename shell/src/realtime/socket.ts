import type { Socket } from "socket.io-client";
import { makeAutoObservable } from "mobx";

/**
 * The socket of spec §7/§9: authenticated with the stored token and session id, websocket
 * first then polling, 10 reconnection attempts with a 5–10 s delay, 20 s timeout.
 */
export const SOCKET_OPTIONS = {
  path: "/socket.io",
  transports: ["websocket", "polling"],
  reconnection: true,
  reconnectionAttempts: 10,
  reconnectionDelay: 5_000,
  reconnectionDelayMax: 10_000,
  timeout: 20_000,
} as const;

export type SocketStatus = "idle" | "connecting" | "connected" | "disconnected" | "failed";

type Handler = (payload: any) => void;

/**
 * socket.io-client is fetched on the first connect (after login), not with the page: the
 * public pages never need it (bundle budget of /login).
 */
export class RealtimeClient {
  status: SocketStatus = "idle";
  private socket: Socket | null = null;
  private handlers = new Map<string, Set<Handler>>();
  /** Bumped by connect and disconnect: a connect whose library arrives late is dropped. */
  private generation = 0;

  constructor(private url: string = "") {
    makeAutoObservable<RealtimeClient, "socket" | "handlers" | "url" | "generation">(this, { socket: false, handlers: false, url: false, generation: false });
  }

  async connect(auth: { token: string; sessionId: string }) {
    this.disconnect();
    const gen = ++this.generation;
    this.setStatus("connecting");
    let io: typeof import("socket.io-client").io;
    try {
      ({ io } = await import("socket.io-client"));
    } catch {
      if (gen === this.generation) this.setStatus("failed");
      return;
    }
    if (gen !== this.generation) return;
    const s = io(this.url || undefined, { ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports], auth });
    this.socket = s;
    s.on("connect", () => this.setStatus("connected"));
    s.on("disconnect", () => this.setStatus("disconnected"));
    s.io.on("reconnect_failed", () => this.setStatus("failed"));
    s.onAny((event: string, payload: unknown) => {
      for (const h of this.handlers.get(event) ?? []) h(payload);
      for (const h of this.handlers.get("*") ?? []) h({ event, payload });
    });
  }

  /** The token was refreshed: the next reconnection uses the new one. */
  updateAuth(auth: { token: string; sessionId: string }) {
    if (this.socket) this.socket.auth = auth;
  }

  /** Subscribes to an event ("*" receives every event as {event, payload}); returns the unsubscribe. */
  on(event: string, h: Handler): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(h);
    return () => set!.delete(h);
  }

  disconnect() {
    this.generation++;
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    this.setStatus("idle");
  }

  setStatus(s: SocketStatus) {
    this.status = s;
  }
}
