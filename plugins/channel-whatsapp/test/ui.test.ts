/**
 * The UI remote's rules and texts, and what its register() adds to the shell (the forms
 * themselves run in the shell's browser test, shell/test/whatsapp.browser.test.ts).
 */
import Validator from "fastest-validator";
import type { ChatListActionDefinition, ConnectFormDefinition, RegisterFn, ShellRuntime } from "@openatende/plugin-sdk/ui";
import { photoProblem, phoneDigits, validateNewGroup, validateWhatsApp, GROUP_PARTICIPANTS_MAX } from "../src/ui/validate";
import { texts, LOCALES } from "../src/ui/texts";
import { codeOfDetail, DETAIL_KEYS, formatCode, parseDetail, phoneOfDetail } from "../src/ui/shared";
import { DETAIL_KEYS as SESSION_DETAIL_KEYS, detail } from "../src/session/status-detail";
import { GROUP_NAME_MAX as SERVER_NAME_MAX, GROUP_PARTICIPANTS_MAX as SERVER_MAX, GROUP_PICTURE_MAX_BYTES } from "../src/groups";
import { GROUP_NAME_MAX, GROUP_PHOTO_MAX_BYTES } from "../src/ui/validate";
import pkg from "../package.json";

const t = (k: string) => k;

// register() gives the chat-list buttons antd icons. Jest's CommonJS cannot load the icons'
// ESM colour helpers, so here they are plain components with the icons' names (the browser
// test, shell/test/whatsapp.browser.test.ts, renders the real ones).
jest.mock("@ant-design/icons", () => {
  const icon = (name: string) => Object.assign(() => null, { displayName: name });
  return { UsergroupAddOutlined: icon("UsergroupAddOutlined"), LoginOutlined: icon("LoginOutlined") };
});

describe("WhatsApp connection form rules", () => {
  const schema = new Validator().compile(pkg.platform.settingsSchema as never);

  it("checks the proxy, the pairing number, the device name and the import dates like the server", () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, {}],
      [{ proxyUrl: "", pairingPhone: "", browserName: "", importSettings: { messages: false, from: "", to: "" } }, {}],
      [{ proxyUrl: "socks5://user@10.0.0.1:1080", proxyPassword: "s3cr3t", pairingPhone: "+55 (11) 98888-7777", browserName: "Loja Centro" }, {}],
      [{ proxyUrl: "http://proxy.local:3128" }, {}],
      [{ proxyUrl: "ftp://proxy.local" }, { proxyUrl: "errProxyUrl" }],
      [{ proxyUrl: "proxy.local:3128" }, { proxyUrl: "errProxyUrl" }],
      [{ proxyUrl: `http://${"a".repeat(500)}` }, { proxyUrl: "errProxyUrl" }],
      [{ proxyPassword: "x".repeat(201) }, { proxyPassword: "errProxyPassword" }],
      [{ pairingPhone: "12-34" }, { pairingPhone: "errPhone" }],
      [{ pairingPhone: "+55 11 9888a7777" }, { pairingPhone: "errPhone" }],
      [{ browserName: "x".repeat(41) }, { browserName: "errBrowserName" }],
      [{ browserName: "Loja\nCentro" }, { browserName: "errBrowserName" }],
      [{ importSettings: { messages: true, from: "2024-01-01", to: "2024-12-31" } }, {}],
      [{ importSettings: { from: "01/02/2024" } }, { "importSettings.from": "errDate" }],
      [{ importSettings: { to: "2024-1-5" } }, { "importSettings.to": "errDate" }],
    ];
    for (const [value, errors] of cases) {
      expect([value, validateWhatsApp(value, t)]).toEqual([value, errors]);
      // What the form accepts the server's schema accepts, and what it refuses on form the schema refuses too.
      expect([value, schema(structuredClone(value)) === true]).toEqual([value, Object.keys(errors).length === 0]);
    }
  });

  it("refuses what the schema's patterns let through but the session would refuse: impossible days, from after to, too few digits", () => {
    expect(validateWhatsApp({ importSettings: { from: "2024-02-30" } }, t)).toEqual({ "importSettings.from": "errDate" });
    expect(validateWhatsApp({ importSettings: { from: "2024-06-02", to: "2024-06-01" } }, t)).toEqual({ "importSettings.to": "errDateOrder" });
    expect(validateWhatsApp({ importSettings: { from: "2024-06-01", to: "2024-06-01" } }, t)).toEqual({});
    expect(validateWhatsApp({ pairingPhone: "+1 234 567" }, t)).toEqual({ pairingPhone: "errPhone" });
    expect(phoneDigits("+55 (11) 98888-7777")).toBe("5511988887777");
    expect(phoneDigits("1234567")).toBeNull();
    expect(phoneDigits("1234567890123456")).toBeNull();
  });
});

describe("new group rules (spec §5 Group)", () => {
  const ok = { name: "Clientes VIP", connectionToken: "tok_1234567890", contactIds: [1, 2] };

  it("needs a name of at most 100 characters, a connection and 1 to 1,023 contacts", () => {
    expect(validateNewGroup(ok, t)).toEqual({});
    expect(validateNewGroup({ ...ok, name: "   " }, t)).toEqual({ name: "errGroupName" });
    expect(validateNewGroup({ ...ok, name: "x".repeat(101) }, t)).toEqual({ name: "errGroupNameMax" });
    expect(validateNewGroup({ ...ok, name: "x".repeat(100) }, t)).toEqual({});
    expect(validateNewGroup({ ...ok, connectionToken: null }, t)).toEqual({ connection: "errGroupConnection" });
    expect(validateNewGroup({ ...ok, contactIds: [] }, t)).toEqual({ contacts: "errGroupContacts" });
    const many = Array.from({ length: GROUP_PARTICIPANTS_MAX + 1 }, (_, i) => i + 1);
    expect(validateNewGroup({ ...ok, contactIds: many }, t)).toEqual({ contacts: "errGroupContactsMax" });
    expect(validateNewGroup({ ...ok, contactIds: many.slice(1) }, t)).toEqual({});
    // The same contact twice counts once.
    expect(validateNewGroup({ ...ok, contactIds: [...many.slice(1), 2] }, t)).toEqual({});
  });

  it("takes a photo only when it is an image of at most 5 MB", () => {
    expect(photoProblem({ type: "image/png", size: 5 * 1024 * 1024 }, t)).toBeNull();
    expect(photoProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 + 1 }, t)).toBe("errPhotoSize");
    expect(photoProblem({ type: "application/pdf", size: 10 }, t)).toBe("errPhotoType");
    expect(photoProblem({ type: "image/svg+xml", size: 10 }, t)).toBe("errPhotoType");
    expect(validateNewGroup({ ...ok, photo: { type: "image/gif", size: 10 } }, t)).toEqual({ photo: "errPhotoType" });
  });

  it("has the server's limits", () => {
    expect([GROUP_NAME_MAX, GROUP_PARTICIPANTS_MAX, GROUP_PHOTO_MAX_BYTES]).toEqual([SERVER_NAME_MAX, SERVER_MAX, GROUP_PICTURE_MAX_BYTES]);
  });
});

describe("status details", () => {
  it("knows every key the session reports, with a text in each language", () => {
    expect([...DETAIL_KEYS].sort()).toEqual([...SESSION_DETAIL_KEYS].sort());
    for (const l of LOCALES) for (const k of DETAIL_KEYS) expect(texts[l].detail[k]).toBeTruthy();
  });

  it("reads the pairing code and the account's number out of the details the session writes", () => {
    expect(codeOfDetail(detail("pairing-code", "K7QX-2MPA — on the phone: WhatsApp › Linked devices › Link with phone number"))).toBe("K7QX-2MPA");
    expect(codeOfDetail(detail("qr", "round 1 of 5"))).toBeNull();
    expect(phoneOfDetail(detail("connected", "5511999990000"))).toBe("+5511999990000");
    expect(parseDetail("[nonsense] x")).toBeNull();
    expect(parseDetail(detail("logged-out", "Unlinked on the phone"))).toEqual({ key: "logged-out", text: "Unlinked on the phone" });
    expect(formatCode("k7qx2mpa")).toBe("K7QX-2MPA");
  });
});

describe("texts", () => {
  /** Every leaf key, nested ones as a.b. */
  const keysOf = (o: object, prefix = ""): string[] =>
    Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
  const leaves = (o: object): unknown[] => Object.values(o).flatMap((v) => (v && typeof v === "object" ? leaves(v) : [v]));

  it("has every text in the four languages, none empty", () => {
    const keys = keysOf(texts["pt-BR"]).sort();
    for (const l of LOCALES) {
      expect([l, keysOf(texts[l]).sort()]).toEqual([l, keys]);
      for (const v of leaves(texts[l])) expect(typeof v === "string" && v.trim().length > 0).toBe(true);
    }
    // Every status of spec §4 has a label.
    for (const s of ["pairing", "connected", "disconnected", "timeout", "qrcode", "inactive", "conflict", "connecting"]) for (const l of LOCALES) expect((texts[l].status as Record<string, string>)[s]).toBeTruthy();
  });

  it("uses the same placeholders in every language", () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const flat = (o: object, prefix = ""): Array<[string, string]> =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)] as [string, string]]));
    const base = new Map(flat(texts["pt-BR"]));
    for (const l of LOCALES) for (const [k, v] of flat(texts[l])) expect([l, k, vars(v)]).toEqual([l, k, vars(base.get(k)!)]);
  });
});

describe("register()", () => {
  it("adds its texts, the connection form and the Groups tab's two admin actions", async () => {
    const forms: ConnectFormDefinition[] = [];
    const actions: ChatListActionDefinition[] = [];
    const translations: Array<Record<string, unknown>> = [];
    const runtime = {
      pluginId: "channel-whatsapp",
      addTranslations: (r: Record<string, unknown>) => translations.push(r),
      registerConnectForm: (f: ConnectFormDefinition) => forms.push(f),
      registerChatListAction: (a: ChatListActionDefinition) => actions.push(a),
      addRoute: () => {
        throw new Error("no pages");
      },
      addMenuItem: () => {
        throw new Error("no menu entries");
      },
    } as unknown as ShellRuntime;
    // Required, not imported: the remote's React files are type-checked with the shell's settings (shell/tsconfig.json).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const register = (require("../src/ui/register") as { default: RegisterFn }).default;
    await register(runtime);

    expect(translations).toEqual([texts]);
    expect(forms.map((f) => f.type)).toEqual([pkg.platform.id]);
    const form = forms[0];
    expect(typeof form.component).toBe("object"); // React.lazy
    expect(form.validate!({ proxyUrl: "nope" }, t)).toEqual({ proxyUrl: "errProxyUrl" });
    // The defaults are settings the server takes.
    expect(new Validator().compile(pkg.platform.settingsSchema as never)(structuredClone(form.defaults!))).toBe(true);

    expect(actions.map((a) => [a.key, a.tabs, a.access])).toEqual([
      ["new-group", ["group"], "admin"],
      ["join-requests", ["group"], "admin"],
    ]);
    expect(actions[0].label).toEqual({ "pt-BR": "Novo grupo do WhatsApp", en: "New WhatsApp group", es: "Nuevo grupo de WhatsApp", ru: "Новая группа WhatsApp" });
    expect(actions[1].label["pt-BR"]).toBe("Pedidos de entrada");
    for (const a of actions) expect(Object.keys(a.label).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    // Two buttons on one tab: each has its own icon.
    expect(actions.map((a) => (a.icon as { type?: { displayName?: string } } | undefined)?.type?.displayName)).toEqual(["UsergroupAddOutlined", "LoginOutlined"]);
  });
});
