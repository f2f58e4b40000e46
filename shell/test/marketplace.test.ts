/** The pure rules of the marketplace and modules screens (src/pages/marketplace/logic.ts). */
import { compareVersions, decisionOf, decisionValue, formatBytes, hasUpdate, localName, moduleBlock, versionAction } from "../src/pages/marketplace/logic";

describe("localName", () => {
  const dn = { "pt-BR": "Eco", en: "Echo", es: "Eco ES" };
  it("uses the user's language, then the same base language, then pt-BR, English, any, the id", () => {
    expect(localName(dn, "es", "x")).toBe("Eco ES");
    expect(localName(dn, "en", "x")).toBe("Echo");
    expect(localName({ "en-US": "Echo US" }, "en", "x")).toBe("Echo US");
    expect(localName(dn, "ru", "x")).toBe("Eco");
    expect(localName({ en: "Echo" }, "ru", "x")).toBe("Echo");
    expect(localName({ de: "Echo DE" }, "ru", "x")).toBe("Echo DE");
    expect(localName({}, "ru", "channel-x")).toBe("channel-x");
    expect(localName(null, "pt-BR", "channel-x")).toBe("channel-x");
    expect(localName({ "pt-BR": "  " }, "pt-BR", "channel-x")).toBe("channel-x");
  });
});

describe("compareVersions", () => {
  it("orders by semver, numerically, a pre-release before its release", () => {
    const sorted = ["1.10.0", "1.2.0", "1.2.0-beta.2", "1.2.0-beta.10", "1.2.0-alpha", "2.0.0", "0.9.9", "1.2.0+build.5"].sort(compareVersions);
    expect(sorted).toEqual(["0.9.9", "1.2.0-alpha", "1.2.0-beta.2", "1.2.0-beta.10", "1.2.0", "1.2.0+build.5", "1.10.0", "2.0.0"]);
    expect(compareVersions("1.2", "1.2.0")).toBe(0);
    expect(compareVersions("v1.0.1", "1.0.0")).toBe(1);
  });
});

describe("versionAction and hasUpdate", () => {
  it("install when nothing is installed, upgrade above, downgrade below, current at the installed version", () => {
    expect(versionAction(null, "1.0.0")).toBe("install");
    expect(versionAction({ version: "1.0.0" }, "1.1.0")).toBe("upgrade");
    expect(versionAction({ version: "1.1.0" }, "1.0.0")).toBe("downgrade");
    expect(versionAction({ version: "1.1.0" }, "1.1.0")).toBe("current");
    expect(hasUpdate(null, "2.0.0")).toBe(false);
    expect(hasUpdate({ version: "1.0.0" }, "1.0.0")).toBe(false);
    expect(hasUpdate({ version: "1.0.0" }, "1.0.1")).toBe(true);
  });
});

describe("the super's three-state decision", () => {
  it("maps true / false / null to allow / block / default and back", () => {
    for (const v of [true, false, null] as const) expect(decisionValue(decisionOf(v))).toBe(v);
    expect(decisionOf(undefined)).toBe("default");
    expect(decisionOf(true)).toBe("allow");
    expect(decisionOf(false)).toBe("block");
  });
});

describe("moduleBlock", () => {
  it("names the platform's refusal first, then the tier the tenant lacks", () => {
    expect(moduleBlock({ allowed: false, tierAllowed: false, tier: "PLUS" })).toEqual({ reason: "notAllowed" });
    expect(moduleBlock({ allowed: true, tierAllowed: false, tier: "PLUS" })).toEqual({ reason: "tier", tier: "PLUS" });
    expect(moduleBlock({ allowed: true, tierAllowed: true, tier: "PLUS" })).toBeNull();
  });
});

describe("formatBytes", () => {
  it("scales to KB / MB with the locale's separator", () => {
    expect(formatBytes(512, "en")).toBe("512 B");
    expect(formatBytes(1536, "en")).toBe("1.5 KB");
    expect(formatBytes(1536, "pt-BR")).toBe("1,5 KB");
    expect(formatBytes(5 * 1024 * 1024, "en")).toBe("5 MB");
    expect(formatBytes(null, "en")).toBe("—");
    expect(formatBytes(-1, "en")).toBe("—");
  });
});
