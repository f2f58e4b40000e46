import { CORE_API_VERSION, channelTypeOf, isCoreApiCompatible, toPackageJson, validateManifest } from "./manifest";

const good = () => ({
  name: "@openatende/channel-webchat",
  version: "1.2.3",
  main: "src/service.ts",
  platform: {
    id: "channel-webchat",
    kind: "channel",
    tier: "FREE",
    coreApi: "^1.0.0",
    displayName: { "pt-BR": "Webchat", en: "Web chat", es: "Chat web", ru: "Веб-чат" },
    ui: { remoteEntry: "remoteEntry.js", exposes: ["ConnectForm", "SettingsPanel"] },
    settingsSchema: { title: { type: "string", max: 80 }, color: { type: "string", optional: true } },
    permissions: ["connections:write"],
    profiles: ["admin", "supervisor"],
    channel: { capabilities: ["text", "media"] },
  } as Record<string, unknown>,
});

function errorsOf(pkg: unknown): string[] {
  const r = validateManifest(pkg);
  if (r.ok) throw new Error("expected the manifest to be refused");
  return r.errors;
}

describe("validateManifest", () => {
  it("accepts a complete channel manifest and returns it with the package's name and version", () => {
    const r = validateManifest(good());
    expect(r).toEqual({
      ok: true,
      manifest: {
        packageName: "@openatende/channel-webchat",
        version: "1.2.3",
        id: "channel-webchat",
        kind: "channel",
        tier: "FREE",
        coreApi: "^1.0.0",
        displayName: { "pt-BR": "Webchat", en: "Web chat", es: "Chat web", ru: "Веб-чат" },
        ui: { remoteEntry: "remoteEntry.js", exposes: ["ConnectForm", "SettingsPanel"] },
        settingsSchema: { title: { type: "string", max: 80 }, color: { type: "string", optional: true } },
        permissions: ["connections:write"],
        profiles: ["admin", "supervisor"],
        channel: { capabilities: ["text", "media"] },
      },
    });
  });

  it("keeps the optional actions a channel declares (receipts, numberCheck) and leaves out the ones declared false", () => {
    const pkg = good();
    pkg.platform.channel = { capabilities: ["text"], receipts: true, numberCheck: false };
    const r = validateManifest(pkg);
    expect(r.ok && r.manifest.channel).toEqual({ capabilities: ["text"], receipts: true });
  });

  it("keeps the template actions and the service window of an official API channel (contract 1.3), and writes them back", () => {
    const pkg = good();
    pkg.platform.channel = { capabilities: ["text", "template"], templates: true, serviceWindowHours: 24 };
    const r = validateManifest(pkg);
    expect(r.ok && r.manifest.channel).toEqual({ capabilities: ["text", "template"], templates: true, serviceWindowHours: 24 });
    if (r.ok) expect(validateManifest(toPackageJson(r.manifest))).toEqual(r);
  });

  it("keeps the icon (a name the shell draws, or an image URL) and the colour (lower-cased)", () => {
    for (const icon of ["whatsapp", "chat", "https://cdn.example.com/sms.svg", "data:image/svg+xml;base64,PHN2Zy8+"]) {
      const pkg = good();
      Object.assign(pkg.platform, { icon, color: "#25A55F" });
      const r = validateManifest(pkg);
      expect(r.ok && { icon: r.manifest.icon, color: r.manifest.color }).toEqual({ icon, color: "#25a55f" });
      if (r.ok) expect(validateManifest(toPackageJson(r.manifest))).toEqual(r);
    }
  });

  it("refuses an icon outside the set that is not an https or data:image URL, and a colour not #rrggbb", () => {
    for (const icon of ["whatsap", "http://x.example/a.png", "javascript:alert(1)", "data:text/html,<b>", 7, "", `https://x.example/${"a".repeat(9000)}`]) {
      const pkg = good();
      pkg.platform.icon = icon;
      expect(errorsOf(pkg)).toEqual([expect.stringMatching(/^platform\.icon must be one of whatsapp, telegram/)]);
    }
    for (const color of ["green", "#25a55", "#25a55fz", "rgb(1,2,3)", 255]) {
      const pkg = good();
      pkg.platform.color = color;
      expect(errorsOf(pkg)).toEqual([expect.stringMatching(/^platform\.color must be a colour as #rrggbb/)]);
    }
  });

  it("keeps the shell routes a UI declares, and refuses one that is not a lowercase path", () => {
    const pkg = good();
    pkg.platform.ui = { exposes: ["register"], routes: ["kanban", "configuracoes/prompt", "campanhas/:id"] };
    const r = validateManifest(pkg);
    expect(r.ok && r.manifest.ui).toEqual({ exposes: ["register"], routes: ["kanban", "configuracoes/prompt", "campanhas/:id"] });
    for (const bad of ["/kanban", "Kanban", "a//b", "a/", "kan ban", ":id", "a/:", "a/:1d", "a/:i-d"]) {
      pkg.platform.ui = { exposes: ["register"], routes: [bad] };
      expect(errorsOf(pkg)).toEqual([expect.stringMatching(/^platform\.ui\.routes\[0\] .* must match/)]);
    }
  });

  it("keeps a higher tier for some routes (routeTiers), and refuses undeclared routes, unknown tiers and tiers not above the plugin's", () => {
    const pkg = good();
    (pkg.platform as { tier: string }).tier = "BASIC";
    pkg.platform.ui = { exposes: ["register"], routes: ["agendamentos", "configuracoes/servicos"], routeTiers: { "configuracoes/servicos": "PREMIUM" } };
    const r = validateManifest(pkg);
    expect(r.ok && r.manifest.ui?.routeTiers).toEqual({ "configuracoes/servicos": "PREMIUM" });
    pkg.platform.ui = { exposes: ["register"], routes: ["agendamentos"], routeTiers: { outra: "PREMIUM", agendamentos: "GOLD" } };
    expect(errorsOf(pkg)).toEqual([expect.stringMatching(/routeTiers\.outra is not one of platform\.ui\.routes/), expect.stringMatching(/routeTiers\.agendamentos must be one of/)]);
    pkg.platform.ui = { exposes: ["register"], routes: ["agendamentos"], routeTiers: { agendamentos: "FREE" } };
    expect(errorsOf(pkg)).toEqual([expect.stringMatching(/must be above the plugin's tier BASIC/)]);
  });

  it("accepts a minimal non-channel manifest (optional blocks left out)", () => {
    const r = validateManifest({ name: "r", version: "0.1.0", platform: { id: "report-nps", kind: "report", tier: "PLUS", coreApi: ">=1.0.0 <2", displayName: { "pt-BR": "NPS" } } });
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.manifest).sort()).toEqual(["coreApi", "displayName", "id", "kind", "packageName", "tier", "version"]);
  });

  it("round-trips through toPackageJson", () => {
    const r = validateManifest(good());
    if (!r.ok) throw new Error("refused");
    expect(validateManifest(toPackageJson(r.manifest))).toEqual(r);
  });

  it("refuses what is not a package.json object or has no platform block", () => {
    expect(errorsOf(null)).toEqual(["package.json must be a JSON object"]);
    expect(errorsOf([])).toEqual(["package.json must be a JSON object"]);
    expect(errorsOf({ name: "x", version: "1.0.0" })).toEqual(["platform must be an object (the plugin manifest)"]);
  });

  it.each([
    ["version", { version: "1.2" }, /^version must be a semver version/],
    ["name", { name: "" }, /^name must be a non-empty string/],
  ])("refuses a bad package %s", (_f, patch, re) => {
    const errors = errorsOf({ ...good(), ...patch });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(re);
  });

  it.each([
    ["id not kebab-case", { id: "Channel_WebChat" }, /^platform\.id "Channel_WebChat" must be kebab-case/],
    ["id with a double hyphen", { id: "channel--x" }, /^platform\.id .* must be kebab-case/],
    ["id of a core domain (the scheduler owner of its jobs)", { id: "automation" }, /^platform\.id "automation" is a name of the core's own/],
    ["id of a core service", { id: "tickets" }, /^platform\.id "tickets" is a name of the core's own/],
    ["id too long", { id: "a".repeat(65) }, /at most 64 characters/],
    ["missing id", { id: undefined }, /^platform\.id must be a non-empty string/],
    ["unknown kind", { kind: "widget" }, /^platform\.kind must be one of channel, campaign, ai, chatbot, report, module/],
    ["lowercase tier", { tier: "plus" }, /^platform\.tier must be one of FREE, BASIC, PLUS, PREMIUM/],
    ["coreApi not a range", { coreApi: "one point oh" }, /^platform\.coreApi must be a semver range/],
    ["empty coreApi", { coreApi: "" }, /^platform\.coreApi must be a semver range/],
    ["no pt-BR name", { displayName: { en: "Web chat" } }, /^platform\.displayName\["pt-BR"\] must be a non-empty string/],
    ["an unknown locale", { displayName: { "pt-BR": "Webchat", fr: "Chat" } }, /^platform\.displayName\.fr is not a locale/],
    ["ui.exposes not an array", { ui: { exposes: "ConnectForm" } }, /^platform\.ui\.exposes must be an array of strings/],
    ["ui.exposes with a path", { ui: { exposes: ["./ConnectForm"] } }, /^platform\.ui\.exposes\[0\] "\.\/ConnectForm" must match/],
    ["ui.remoteEntry escaping the plugin", { ui: { remoteEntry: "../../etc/passwd", exposes: [] } }, /^platform\.ui\.remoteEntry must be a relative file path/],
    ["a broken settingsSchema", { settingsSchema: { token: { type: "nope" } } }, /^platform\.settingsSchema is not a valid fastest-validator schema: Invalid 'nope' type/],
    ["permissions not strings", { permissions: [1] }, /^platform\.permissions\[0\] must be a non-empty string/],
    ["an unknown profile", { profiles: ["super"] }, /^platform\.profiles\[0\] "super" is not one of user, supervisor, admin/],
    ["empty profiles", { profiles: [] }, /^platform\.profiles must not be empty/],
    ["a repeated profile", { profiles: ["admin", "admin"] }, /^platform\.profiles\[1\] "admin" is repeated/],
    ["a channel without channel block", { channel: undefined }, /^platform\.channel must be an object with capabilities when kind is channel/],
    ["an unknown capability", { channel: { capabilities: ["text", "poll"] } }, /^platform\.channel\.capabilities\[1\] "poll" is not one of text, media, reaction, edit, delete, template, sticker/],
    ["no capabilities", { channel: { capabilities: [] } }, /^platform\.channel\.capabilities must not be empty/],
    ["a bad channel type", { channel: { capabilities: ["text"], type: "web chat" } }, /^platform\.channel\.type must be/],
    ["receipts not a boolean", { channel: { capabilities: ["text"], receipts: "yes" } }, /^platform\.channel\.receipts must be true or false/],
    ["numberCheck not a boolean", { channel: { capabilities: ["text"], numberCheck: 1 } }, /^platform\.channel\.numberCheck must be true or false/],
    ["an unknown channel field", { channel: { capabilities: ["text"], readReceipts: true } }, /^platform\.channel\.readReceipts is not a channel field \(known: capabilities, type, receipts, numberCheck, templates, balance, serviceWindowHours\)/],
    ["templates without the template capability", { channel: { capabilities: ["text"], templates: true } }, /^platform\.channel\.templates needs the capability "template"/],
    ["a service window of 0 hours", { channel: { capabilities: ["text"], serviceWindowHours: 0 } }, /^platform\.channel\.serviceWindowHours must be a whole number of hours from 1 to 720/],
    ["a service window of 1.5 hours", { channel: { capabilities: ["text"], serviceWindowHours: 1.5 } }, /^platform\.channel\.serviceWindowHours must be/],
    ["a channel block on another kind", { kind: "report" }, /^platform\.channel is only for plugins of kind channel/],
    ["a misspelt field", { settingSchema: {} }, /^platform\.settingSchema is not a manifest field/],
  ])("refuses %s, naming the field", (_label, patch, re) => {
    const pkg = good();
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete pkg.platform[k];
      else pkg.platform[k] = v;
    }
    const errors = errorsOf(pkg);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(re);
  });

  it("reports every problem at once", () => {
    const errors = errorsOf({ name: "x", version: "x", platform: { id: "X", kind: "?", tier: "?", coreApi: "?", displayName: {} } });
    expect(errors.map((e) => e.split(" ")[0])).toEqual(["version", "platform.id", "platform.kind", "platform.tier", "platform.coreApi", 'platform.displayName["pt-BR"]']);
  });
});

describe("isCoreApiCompatible", () => {
  it(`checks a range against this core's API (${CORE_API_VERSION})`, () => {
    expect(CORE_API_VERSION).toBe("1.0.0");
    for (const r of ["^1.0.0", "1.x", ">=1.0.0 <2.0.0", "*", "~1.0.0"]) expect([r, isCoreApiCompatible(r)]).toEqual([r, true]);
    for (const r of ["^2.0.0", "^1.1.0", "<1.0.0", "0.x"]) expect([r, isCoreApiCompatible(r)]).toEqual([r, false]);
  });
  it("is false for a string that is not a range, and takes another core version", () => {
    expect(isCoreApiCompatible("nonsense")).toBe(false);
    expect(isCoreApiCompatible(undefined as unknown as string)).toBe(false);
    expect(isCoreApiCompatible("^1.1.0", "1.4.0")).toBe(true);
    expect(isCoreApiCompatible("^1.0.0", "2.0.0")).toBe(false);
  });
});

describe("channelTypeOf", () => {
  it("is the declared type, or the id without its channel- prefix", () => {
    expect(channelTypeOf({ id: "channel-webchat", channel: { capabilities: ["text"] } })).toBe("webchat");
    expect(channelTypeOf({ id: "channel-whatsapp-cloud", channel: { capabilities: ["text"], type: "WABA" } })).toBe("WABA");
    expect(channelTypeOf({ id: "telegram" })).toBe("telegram");
  });
});
