/**
 * The attendance stores' logic, without a browser: the list's order and visibility rules
 * (as the API's list applies them), live socket events moving tickets in, around and out of
 * a tab, message merging, the notification rule of spec §6 and the composer's file limits.
 */
import { DEFAULT_FILTER } from "../src/stores/session";
import { appMessage, chatCreated, type ChatCreatePayload, type MessageView } from "@openatende/contracts/realtime";
import { TicketList, TicketsStore, compareTickets, visibleInList, matchesSearch, ticketFromChat, type ListFilter, type Ticket, type Viewer } from "../src/stores/tickets";
import { MessagesStore, mergeMessages, toMessage, type Message } from "../src/stores/messages";
import { NotificationsStore, shouldNotify } from "../src/stores/notifications";
import { checkFiles } from "../src/pages/atendimento/files";
import { failureLine, memberName } from "../src/pages/atendimento/format";
import { windowNow } from "../src/pages/atendimento/service-window";

const agent: Viewer = { id: 7, queues: [1], profile: "user" };
const admin: Viewer = { id: 1, queues: [1, 2], profile: "admin" };

/** A `chat:create` payload as the core builds it (@openatende/contracts/realtime). */
function chat(body: string, t: Partial<ChatCreatePayload["ticket"]> & { id: number }, extra: Partial<ChatCreatePayload> = {}): ChatCreatePayload {
  const ticket = { userId: null, queueId: null, contactId: t.id, isGroup: false, status: "pending" as const, unreadMessages: 1, contact: { name: "Cliente", profilePicUrl: null }, ...t };
  return { ...chatCreated({ ticket, contact: { id: ticket.contactId, ...ticket.contact }, message: { id: 1, participant: null, mediaType: null }, body, isGroup: ticket.isGroup, fromMe: false, hasMedia: false }).payload, ...extra };
}
const filter = (patch: Partial<ListFilter> = {}): ListFilter => ({ ...DEFAULT_FILTER, ...patch });

let nextId = 100;
function ticket(p: Partial<Ticket> = {}): Ticket {
  const id = p.id ?? nextId++;
  return {
    id,
    protocol: `P${id}`,
    status: "pending",
    contactId: id,
    connectionId: 1,
    queueId: 1,
    userId: null,
    isGroup: false,
    pinned: false,
    unreadMessages: 0,
    lastMessage: "oi",
    lastMessageAt: 1_000,
    contact: { id, name: `Cliente ${id}`, number: "5511999990000", profilePicUrl: null },
    ...p,
  };
}

describe("ticket order (spec §4: unread first, as the API orders)", () => {
  it("pinned, then unread, then the latest activity, then the highest id", () => {
    const a = ticket({ id: 1, lastMessageAt: 5_000 });
    const b = ticket({ id: 2, lastMessageAt: 1_000, unreadMessages: 3 });
    const c = ticket({ id: 3, lastMessageAt: 100, pinned: true });
    const d = ticket({ id: 4, lastMessageAt: 5_000 });
    const e = ticket({ id: 5, lastMessageAt: 9_000 });
    expect([a, b, c, d, e].sort(compareTickets).map((t) => t.id)).toEqual([3, 2, 5, 4, 1]);
  });
});

describe("visibility in a tab (mirrors core/src/tickets/list-query.ts)", () => {
  it("an agent sees their queues' tickets, their own, and unassigned ones without a queue", () => {
    expect(visibleInList(ticket({ queueId: 1 }), "open", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ queueId: 2 }), "open", filter(), agent)).toBe(false);
    expect(visibleInList(ticket({ queueId: 2, userId: 7, status: "open" }), "open", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ queueId: null }), "open", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ queueId: null, userId: 9, status: "open" }), "open", filter(), agent)).toBe(false);
    expect(visibleInList(ticket({ queueId: null }), "open", filter({ includeNotQueueDefined: false }), agent)).toBe(false);
  });

  it("tabs take their statuses: active is open and pending, resolved is closed, groups is group", () => {
    expect(visibleInList(ticket({ status: "open", userId: 7 }), "open", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ status: "closed" }), "open", filter(), agent)).toBe(false);
    expect(visibleInList(ticket({ status: "closed" }), "closed", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ status: "group" }), "group", filter(), agent)).toBe(true);
    expect(visibleInList(ticket({ status: "chatbot" }), "open", filter(), agent)).toBe(false);
  });

  it("filters: unread only, not assigned, queues", () => {
    expect(visibleInList(ticket(), "open", filter({ withUnreadMessages: true }), agent)).toBe(false);
    expect(visibleInList(ticket({ unreadMessages: 2 }), "open", filter({ withUnreadMessages: true }), agent)).toBe(true);
    expect(visibleInList(ticket({ status: "open", userId: 7 }), "open", filter({ isNotAssignedUser: true }), agent)).toBe(false);
    expect(visibleInList(ticket({ queueId: 1 }), "open", filter({ queuesIds: [2] }), admin)).toBe(false);
    expect(visibleInList(ticket({ queueId: 2 }), "open", filter({ queuesIds: [2] }), admin)).toBe(true);
  });

  it("showAll: admins and supervisors see everyone's tickets; agents cannot widen their view with it", () => {
    const others = ticket({ queueId: 3, userId: 99, status: "open" });
    expect(visibleInList(others, "open", filter({ showAll: true }), admin)).toBe(true);
    expect(visibleInList(others, "open", filter({ showAll: false }), admin)).toBe(false);
    expect(visibleInList(others, "open", filter({ showAll: true }), agent)).toBe(false);
  });

  it("ticketsOwnerOnly: an agent does not see their queue's tickets others hold", () => {
    const held = ticket({ queueId: 1, userId: 99, status: "open" });
    expect(visibleInList(held, "open", filter(), agent, { ticketsOwnerOnly: true })).toBe(false);
    expect(visibleInList(held, "open", filter(), agent, {})).toBe(true);
  });

  it("a search matches a new ticket by contact name (accents ignored), protocol or id", () => {
    const t = ticket({ id: 555, protocol: "2025X", contact: { id: 1, name: "João Ávila", number: null, profilePicUrl: null } });
    expect(matchesSearch(t, "joao av")).toBe(true);
    expect(matchesSearch(t, "2025X")).toBe(true);
    expect(matchesSearch(t, "555")).toBe(true);
    expect(matchesSearch(t, "maria")).toBe(false);
  });
});

describe("live events on the list", () => {
  const ctx = (me: Viewer = agent, f: ListFilter = filter()) => ({ tab: "open" as const, filter: f, me });

  it("chat:create of a new ticket puts it at the top (unread first); the next message moves an older one up", () => {
    const list = new TicketList();
    const old = ticket({ id: 1, lastMessageAt: 2_000 });
    const older = ticket({ id: 2, lastMessageAt: 1_000 });
    list.receivePage([old, older], false, true);
    const payload = chat("Olá!", { id: 3, userId: null, queueId: 1, contactId: 33, status: "pending", unreadMessages: 1, contact: { name: "Nova", profilePicUrl: null } });
    expect(list.upsert(ticketFromChat(payload, 3_000), ctx())).toBe("added");
    expect(list.items.map((t) => t.id)).toEqual([3, 1, 2]);
    expect(list.items[0].lastMessage).toBe("Olá!");
    list.upsert(ticketFromChat({ ...payload, body: "de novo", ticket: { ...payload.ticket, id: 2, contactId: 2, unreadMessages: 4 } }, 4_000), ctx());
    expect(list.items.map((t) => t.id)).toEqual([2, 3, 1]);
    expect(list.get(2)!.unreadMessages).toBe(4);
    // The contact's number, left out of list events, is kept.
    expect(list.get(2)!.contact!.number).toBe("5511999990000");
  });

  it("accepted by me it stays; transferred to a queue I am not in it leaves; resolved it leaves the active tab", () => {
    const list = new TicketList();
    list.receivePage([ticket({ id: 10 }), ticket({ id: 11 })], false, true);
    expect(list.upsert({ id: 10, status: "open", userId: 7 }, ctx())).toBe("updated");
    expect(list.get(10)!.status).toBe("open");
    expect(list.upsert({ id: 10, status: "pending", userId: null, queueId: 2 }, ctx())).toBe("removed");
    expect(list.upsert({ id: 11, status: "closed" }, ctx())).toBe("removed");
    expect(list.items).toEqual([]);
  });

  it("a transfer into my queue brings a ticket I never saw into my list", () => {
    const list = new TicketList();
    list.receivePage([], false, true);
    const moved = ticket({ id: 20, queueId: 1, status: "pending" });
    expect(list.upsert(moved, ctx())).toBe("added");
    expect(list.items.map((t) => t.id)).toEqual([20]);
  });

  it("a new ticket that sorts after the loaded rows waits for its page; an update of a listed one never duplicates", () => {
    const list = new TicketList();
    list.receivePage([ticket({ id: 30, lastMessageAt: 9_000 }), ticket({ id: 31, lastMessageAt: 8_000 })], true, true);
    expect(list.upsert(ticket({ id: 32, lastMessageAt: 10 }), ctx())).toBe("ignored");
    list.receivePage([ticket({ id: 31, lastMessageAt: 8_000 }), ticket({ id: 33, lastMessageAt: 7_000 })], false, false);
    expect(list.items.map((t) => t.id)).toEqual([30, 31, 33]);
  });

  it("pinning moves a ticket above unread ones", () => {
    const list = new TicketList();
    list.receivePage([ticket({ id: 40, unreadMessages: 2, lastMessageAt: 5 }), ticket({ id: 41, lastMessageAt: 1 })], false, true);
    list.upsert({ id: 41, pinned: true }, ctx());
    expect(list.items.map((t) => t.id)).toEqual([41, 40]);
  });

  it("keeps 1,000 tickets ordered under a burst of events quickly", () => {
    const list = new TicketList();
    list.receivePage(Array.from({ length: 1000 }, (_, i) => ticket({ id: 1000 + i, lastMessageAt: 100_000 - i })), false, true);
    const t0 = Date.now();
    for (let i = 0; i < 500; i++) list.upsert({ id: 1000 + ((i * 37) % 1000), lastMessageAt: 200_000 + i, unreadMessages: i % 3 }, ctx());
    expect(Date.now() - t0).toBeLessThan(1500);
    const sorted = [...list.items].sort(compareTickets);
    expect(list.items.map((t) => t.id)).toEqual(sorted.map((t) => t.id));
    expect(new Set(list.items.map((t) => t.id)).size).toBe(1000);
  });
});

describe("a tab loading while events arrive", () => {
  it("a message heard while the first page loads is applied on top of the page, which was read before it", async () => {
    let answer: (v: unknown) => void = () => undefined;
    const store = new TicketsStore({
      api: { get: (() => new Promise((resolve) => (answer = resolve))) as never },
      viewer: () => admin,
      filter: () => ({ ...DEFAULT_FILTER }),
      settings: () => ({}),
    });
    store.setTab("group");
    expect(store.loading).toBe(true);
    // The group's first message arrives while the list is being read…
    const payload = chat("Bom dia, pessoal!", { id: 9, userId: null, queueId: null, contactId: 90, isGroup: true, status: "group", unreadMessages: 1, contact: { name: "Clientes VIP", profilePicUrl: null } });
    store.onTicketList({ type: "chat:create", payload });
    // …and the page the server read before storing it shows the ticket without it.
    answer({ tickets: [ticket({ id: 9, status: "group", isGroup: true, queueId: null, lastMessage: "", lastMessageAt: 1_000, unreadMessages: 0 })], hasMore: false, pageNumber: 1 });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.loading).toBe(false);
    expect(store.items.map((t) => [t.id, t.lastMessage, t.unreadMessages])).toEqual([[9, "Bom dia, pessoal!", 1]]);
  });
});

describe("messages", () => {
  const m = (p: Partial<Message>): Message => toMessage({ ticketId: 1, status: "received", createdAt: new Date(0).toISOString(), ...p });
  /** An `appMessage` event as the core builds it, of a message with these fields. */
  const event = (action: "create" | "update", p: Partial<MessageView> & { id: number; ticketId: number }) => {
    const message: MessageView = { ...m(p), contactId: 1, connectionId: 1, providerId: null, media: null, ...p };
    return appMessage(action, message, { id: p.ticketId, status: "open", userId: 7, queueId: 1 });
  };

  it("merge by id, without duplicates, sorted by time; a newer copy replaces the older", () => {
    const a = m({ id: 1, timestamp: 10, body: "a" });
    const b = m({ id: 2, timestamp: 5, body: "b" });
    const merged = mergeMessages([a, b], [m({ id: 1, timestamp: 10, body: "a (editada)", isEdited: true }), m({ id: 3, timestamp: 20 })]);
    expect(merged.map((x) => x.id)).toEqual([2, 1, 3]);
    expect(merged[1].body).toBe("a (editada)");
  });

  it("a live message lands in its open thread; my own stored message replaces the local copy shown while sending", () => {
    const noApi = new Proxy({}, { get: () => () => Promise.reject(new Error("no API in this test")) }) as never;
    const store = new MessagesStore(noApi, () => 7);
    const thread = store.thread(1);
    thread.merge([m({ id: 1, timestamp: 10 }), { ...m({ id: -5, timestamp: 20, fromMe: true, userId: 7, body: "Oi!" }), local: { group: "g1", state: "sending" } }]);
    store.onAppMessage(event("create", { id: 2, ticketId: 1, fromMe: true, userId: 7, body: "Oi!", status: "pending", timestamp: 21, createdAt: new Date().toISOString() }));
    expect(thread.messages.map((x) => x.id)).toEqual([1, 2]);
    store.onAppMessage(event("update", { id: 2, ticketId: 1, fromMe: true, userId: 7, body: "Oi!", status: "sent", timestamp: 21 }));
    expect(thread.messages.map((x) => [x.id, x.status])).toEqual([
      [1, "received"],
      [2, "sent"],
    ]);
    // Another ticket's message does not go into this thread.
    store.onAppMessage(event("create", { id: 9, ticketId: 2, body: "x", timestamp: 30 }));
    expect(thread.messages).toHaveLength(2);
  });

  it("a message written on the account's phone (fromMe, no user) is not taken for my own local copy", () => {
    const noApi = new Proxy({}, { get: () => () => Promise.reject(new Error("no API in this test")) }) as never;
    const store = new MessagesStore(noApi, () => 7);
    const thread = store.thread(3);
    thread.merge([{ ...m({ id: -9, ticketId: 3, timestamp: 20, fromMe: true, userId: 7, body: "Oi!" }), local: { group: "g2", state: "sending" } }]);
    store.onAppMessage(event("create", { id: 40, ticketId: 3, fromMe: true, userId: null, body: "Oi!", status: "sent", timestamp: 19 }));
    expect(thread.messages.map((x) => [x.id, x.userId, x.local?.state ?? null])).toEqual([
      [40, null, null],
      [-9, 7, "sending"],
    ]);
  });

  it("keeps a group message's member and the played status", () => {
    const g = toMessage({ id: 5, ticketId: 1, status: "played", fromMe: false, participant: { externalId: "5511911112222@s.whatsapp.net", name: "Ana" }, timestamp: 1 });
    expect([g.participant, g.status]).toEqual([{ externalId: "5511911112222@s.whatsapp.net", name: "Ana" }, "played"]);
    expect(toMessage({ id: 6, ticketId: 1, participant: { name: "sem id" } }).participant).toBeNull();
    // Shown above the bubble: the name, else the number, else the id without its domain.
    expect([g.participant, { externalId: "x@lid", phone: " 5511933334444 " }, { externalId: "5511977776666@s.whatsapp.net", name: "  " }, null].map(memberName)).toEqual([
      "Ana",
      "5511933334444",
      "5511977776666",
      null,
    ]);
  });
});

describe("notifications (spec §6)", () => {
  const me = { id: 7, queues: [1] };
  const p = (ticket: { userId: number | null; queueId: number | null }, read = false) => chat("oi", { id: 1, contactId: 1, status: "pending", ...ticket }, { read });
  it("only new unread incoming messages on tickets unassigned or mine, in my queues", () => {
    expect(shouldNotify(p({ userId: null, queueId: 1 }), me)).toBe(true);
    expect(shouldNotify(p({ userId: 7, queueId: 1 }), me)).toBe(true);
    expect(shouldNotify(p({ userId: 8, queueId: 1 }), me)).toBe(false);
    expect(shouldNotify(p({ userId: null, queueId: 2 }), me)).toBe(false);
    expect(shouldNotify(p({ userId: null, queueId: null }), me)).toBe(false);
    expect(shouldNotify(p({ userId: null, queueId: 1 }, true), me)).toBe(false);
  });

  it("never for a message written on the account's own phone", () => {
    expect(shouldNotify({ ...p({ userId: null, queueId: 1 }), fromMe: true }, me)).toBe(false);
    const store = new NotificationsStore({ viewer: () => me, navigate: () => undefined, t: (k) => k, openTicketId: () => null });
    store.onTicketList({ type: "chat:create", payload: { ...p({ userId: null, queueId: 1 }), fromMe: true, read: true } });
    expect(store.recent).toEqual([]);
    store.onTicketList({ type: "chat:create", payload: { ...p({ userId: null, queueId: 1 }), fromMe: false } });
    expect(store.recent.map((r) => r.body)).toEqual(["oi"]);
  });
});

describe("composer files (spec §9: 10 MB each, 30 MB in total)", () => {
  const MB = 1024 * 1024;
  const t = (k: string, v?: Record<string, unknown>) => `${k} ${JSON.stringify(v ?? {})}`;
  it("refuses a file over 10 MB and files that would pass 30 MB, before any upload", () => {
    const r = checkFiles([], [{ name: "a.pdf", size: 9 * MB }, { name: "big.mp4", size: 11 * MB }, { name: "b.pdf", size: 9 * MB }, { name: "c.pdf", size: 9 * MB }, { name: "d.pdf", size: 4 * MB }], "pt-BR", t);
    expect(r.ok).toEqual([0, 2, 3]);
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toContain("fileTooBig");
    expect(r.errors[0]).toContain("big.mp4");
    expect(r.errors[1]).toContain("filesTooBig");
    expect(checkFiles([{ size: 25 * MB }], [{ name: "e.png", size: 6 * MB }], "en", t).ok).toEqual([]);
  });
});

describe("texts of the attendance screen", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require("node:fs") as typeof import("node:fs");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require("node:path") as typeof import("node:path");
  const locales = {
    "pt-BR": require("../src/i18n/locales/pt-BR/atendimento").default,
    en: require("../src/i18n/locales/en/atendimento").default,
    es: require("../src/i18n/locales/es/atendimento").default,
    ru: require("../src/i18n/locales/ru/atendimento").default,
  } as Record<string, Record<string, unknown>>;
  const keysOf = (o: Record<string, unknown>, prefix = ""): string[] =>
    Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
  const lookup = (o: Record<string, unknown>, key: string) => key.split(".").reduce<unknown>((x, k) => (x && typeof x === "object" ? (x as Record<string, unknown>)[k] : undefined), o);

  it("the four languages have the same keys, none empty", () => {
    const pt = keysOf(locales["pt-BR"]).sort();
    for (const [lang, texts] of Object.entries(locales)) {
      expect({ lang, keys: keysOf(texts).sort() }).toEqual({ lang, keys: pt });
      for (const k of pt) expect(String(lookup(texts, k)).trim()).not.toBe("");
    }
  });

  it("every key the screen uses exists", () => {
    const dir = path.resolve(__dirname, "../src/pages/atendimento");
    const files = [...fs.readdirSync(dir).filter((f) => f.endsWith(".tsx") || f.endsWith(".ts")).map((f) => path.join(dir, f)), path.resolve(__dirname, "../src/stores/notifications.ts")];
    const used = new Set<string>();
    for (const f of files) for (const m of fs.readFileSync(f, "utf8").matchAll(/["'`]atendimento\.([a-zA-Z0-9_.]+)["'`]/g)) used.add(m[1]);
    // Keys built at run time.
    for (const s of ["open", "pending", "closed", "group", "chatbot"]) used.add(`status.${s}`);
    for (const s of ["image", "audio", "video", "document", "location", "contact"]) used.add(`media.${s}`);
    for (const s of ["pending", "sent", "delivered", "read", "failed"]) used.add(`message.status.${s}`);
    for (const tab of ["open", "closed", "group"]) used.add(`empty.${tab}.title`), used.add(`empty.${tab}.detail`);
    expect(used.size).toBeGreaterThan(100);
    for (const k of used) for (const [lang, texts] of Object.entries(locales)) expect({ lang, k, found: typeof lookup(texts, k) === "string" }).toEqual({ lang, k, found: true });
  });
});

describe("a failed message's reason (failureLine)", () => {
  const line = (code: string) => `texto de ${code}`;
  it("translates a catalogue code, keeps the provider's words after it, and leaves free text as it is", () => {
    expect(failureLine("ERR_WABA_TEMPLATE_REQUIRED", line)).toBe("texto de ERR_WABA_TEMPLATE_REQUIRED");
    expect(failureLine("ERR_WABA_SEND_REFUSED: 131026 Message undeliverable", line)).toBe("texto de ERR_WABA_SEND_REFUSED (131026 Message undeliverable)");
    expect(failureLine("Número desativado", line)).toBe("Número desativado");
    expect(failureLine(null, line)).toBeNull();
    expect(failureLine("ERR_NOT_IN_CATALOGUE: 42", () => null)).toBe("ERR_NOT_IN_CATALOGUE (42)");
  });
});

describe("the customer-service window as the composer sees it (windowNow)", () => {
  const H = 3_600_000;
  const sw = (lastInboundAt: number | null) => ({ hours: 24, lastInboundAt, closesAt: lastInboundAt === null ? null : lastInboundAt + 24 * H, open: false });
  it("is none on a channel without a window", () => {
    expect(windowNow(undefined, [], 0)).toBeNull();
  });
  it("closes 24 hours after the contact's last message, by the time passed since the API answered", () => {
    expect(windowNow(sw(1_000), [], 1_000 + 24 * H - 1)).toEqual({ hours: 24, open: true, closesAt: 1_000 + 24 * H });
    expect(windowNow(sw(1_000), [], 1_000 + 24 * H)).toEqual({ hours: 24, open: false, closesAt: 1_000 + 24 * H });
    expect(windowNow(sw(null), [], 5)).toEqual({ hours: 24, open: false, closesAt: null });
  });
  it("opens again when the contact writes; the agent's own messages do not count", () => {
    const now = 100 * H;
    expect(windowNow(sw(10 * H), [{ fromMe: true, timestamp: now - H }], now)?.open).toBe(false);
    expect(windowNow(sw(10 * H), [{ fromMe: false, timestamp: now - H }], now)).toEqual({ hours: 24, open: true, closesAt: now + 23 * H });
  });
});
