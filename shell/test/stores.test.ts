/** Session and UI stores: the stored keys of spec §3, the locale, and the spinner rule of §9. */
import { SessionStore, STORAGE_KEYS, browserLocale, DEFAULT_FILTER, type LoginResponse } from "../src/stores/session";
import { UiStore } from "../src/stores/ui";
import { MemoryStorage } from "./memory-storage";

const login: LoginResponse = {
  token: "tok",
  refreshToken: "ref",
  sessionId: "sid",
  username: "Ana",
  profile: "supervisor",
  userId: 7,
  tenantId: 3,
  isMaster: false,
  queues: [1, 2],
  configs: { isDark: true },
  image: null,
  user: { id: 7, name: "Ana", email: "ana@x.test", profile: "supervisor", configs: { isDark: true, filtrosAtendimento: { showAll: true } }, lgpdAccepted: true },
  tenant: { id: 3, name: "Loja", termsAccepted: true, termsAcceptedAt: null },
};

describe("SessionStore", () => {
  it("stores each key of the session, reloads it, and clears it except the language", () => {
    const storage = new MemoryStorage();
    const s = new SessionStore(storage);
    s.setLocale("es");
    s.signIn(login);
    expect(JSON.parse(storage.getItem("queues")!)).toEqual([1, 2]);
    expect(storage.getItem("token")).toBe("tok");
    const again = new SessionStore(storage);
    expect(again.loggedIn).toBe(true);
    expect(again.username).toBe("Ana");
    expect(again.isSupervisorOrAdmin).toBe(true);
    expect(again.isAdmin).toBe(false);
    expect(again.isDark).toBe(true);
    expect(again.locale).toBe("es");
    expect(again.attendanceFilter).toEqual({ ...DEFAULT_FILTER, showAll: true });
    again.clear();
    for (const k of STORAGE_KEYS) expect(storage.getItem(k)).toBeNull();
    expect(storage.getItem("user-locale")).toBe("es");
    expect(new SessionStore(storage).loggedIn).toBe(false);
  });

  it("FREE when no licence was read; the attendance filter defaults of spec §3", () => {
    const s = new SessionStore(new MemoryStorage());
    expect(s.tier).toBe("FREE");
    expect(DEFAULT_FILTER).toMatchObject({ searchParam: "", pageNumber: 1, status: ["open", "pending"], showAll: false, queuesIds: [], includeNotQueueDefined: true });
  });

  it("picks the browser's language among the four, pt-BR otherwise", () => {
    expect(browserLocale(["ru-RU", "en"])).toBe("ru");
    expect(browserLocale(["pt-PT"])).toBe("pt-BR");
    expect(browserLocale(["de-DE", "es-MX"])).toBe("es");
    expect(browserLocale(["de-DE"])).toBe("pt-BR");
  });
});

describe("UiStore spinner (spec §9)", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("shows only when the previous request started over 2 s ago, hides 1 s after the last one ends", () => {
    const ui = new UiStore();
    ui.requestStarted(10_000);
    expect(ui.spinner).toBe(true);
    ui.requestEnded();
    jest.advanceTimersByTime(999);
    expect(ui.spinner).toBe(true);
    jest.advanceTimersByTime(1);
    expect(ui.spinner).toBe(false);
    // 1.5 s after the previous request: no spinner.
    ui.requestStarted(11_500);
    expect(ui.spinner).toBe(false);
    ui.requestEnded();
    // 2.5 s after: spinner again.
    ui.requestStarted(14_000);
    expect(ui.spinner).toBe(true);
  });

  it("keeps the notice history bounded", () => {
    const ui = new UiStore();
    for (let i = 0; i < 60; i++) ui.notify({ kind: "info", title: `n${i}` });
    expect(ui.history).toHaveLength(50);
    expect(ui.history[0].title).toBe("n10");
    ui.dismiss(ui.notices[0].id);
    expect(ui.notices).toHaveLength(59);
  });
});
