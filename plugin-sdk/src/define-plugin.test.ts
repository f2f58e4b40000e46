import { ServiceBroker } from "moleculer";
import { definePlugin, findDefinedPlugin, isDefinedPlugin, PLUGIN_TAG, PluginDefinitionError, pluginServiceName } from "./define-plugin";
import { validateManifest } from "./manifest";

const pkg = (version = "2.3.4", extra: Record<string, unknown> = {}) => ({
  name: "@acme/ai-echo",
  version,
  platform: { id: "ai-echo", kind: "ai", tier: "BASIC", coreApi: "^1.0.0", displayName: { "pt-BR": "Eco" }, ...extra },
});

const service = {
  settings: { greeting: "olá" },
  metadata: { author: "acme" },
  actions: {
    echo: {
      params: { text: "string" },
      handler(ctx: { params: { text: string } }) {
        return ctx.params.text;
      },
    },
  },
};

describe("definePlugin", () => {
  it("returns a frozen, tagged object whose service is named by the id and versioned by the major", () => {
    const p = definePlugin({ pkgJson: pkg(), service });
    expect(p.$$openatendePlugin).toBe(PLUGIN_TAG);
    expect(PLUGIN_TAG).toBe(1);
    expect({ id: p.id, version: p.version, major: p.major }).toEqual({ id: "ai-echo", version: "2.3.4", major: 2 });
    expect(p.manifest).toMatchObject({ id: "ai-echo", kind: "ai", tier: "BASIC", packageName: "@acme/ai-echo" });
    expect(p.schema).toMatchObject({ name: "ai-echo", version: 2, settings: { greeting: "olá" } });
    expect(p.schema.metadata).toEqual({ author: "acme", plugin: { id: "ai-echo", version: "2.3.4", kind: "ai", coreApi: "^1.0.0" } });
    expect(Object.isFrozen(p)).toBe(true);
    expect(isDefinedPlugin(p)).toBe(true);
  });

  it("takes a validated manifest instead of package.json", () => {
    const r = validateManifest(pkg("0.4.0"));
    if (!r.ok) throw new Error("refused");
    const p = definePlugin({ manifest: r.manifest, service });
    expect({ id: p.id, major: p.major, name: p.schema.name, v: p.schema.version }).toEqual({ id: "ai-echo", major: 0, name: "ai-echo", v: 0 });
  });

  it("runs as v<major>.<id> on a broker, so two majors run side by side", async () => {
    const broker = new ServiceBroker({ logger: false });
    const v1 = definePlugin({ pkgJson: pkg("1.9.0"), service: { actions: { which: () => "one" } } });
    const v2 = definePlugin({ pkgJson: pkg("2.0.0"), service: { actions: { which: () => "two" } } });
    broker.createService({ ...v1.schema });
    broker.createService({ ...v2.schema });
    await broker.start();
    try {
      expect(pluginServiceName(v1.id, v1.major)).toBe("v1.ai-echo");
      expect(await broker.call("v1.ai-echo.which")).toBe("one");
      expect(await broker.call("v2.ai-echo.which")).toBe("two");
    } finally {
      await broker.stop();
    }
  });

  it("refuses an invalid manifest, listing its errors", () => {
    let err: unknown;
    try {
      definePlugin({ pkgJson: pkg("1.0.0", { id: "Bad Id", tier: "GOLD" }), service });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PluginDefinitionError);
    expect((err as PluginDefinitionError).errors).toEqual([expect.stringMatching(/^platform\.id/), expect.stringMatching(/^platform\.tier/)]);
    expect((err as Error).message).toMatch(/^Invalid plugin manifest:\n {2}- platform\.id/);
  });

  it("refuses a service whose name or version contradicts the manifest", () => {
    expect(() => definePlugin({ pkgJson: pkg(), service: { ...service, name: "other" } })).toThrow(/service\.name "other" must be the manifest id "ai-echo"/);
    expect(() => definePlugin({ pkgJson: pkg(), service: { ...service, version: 3 } })).toThrow(/service\.version 3 must be the major of 2\.3\.4 \(2\)/);
    expect(definePlugin({ pkgJson: pkg(), service: { ...service, name: "ai-echo", version: 2 } }).schema.name).toBe("ai-echo");
  });

  it("makes the hooks' actions and names them in the metadata; refuses unknown hooks and declared hook actions", async () => {
    const p = definePlugin({
      pkgJson: pkg(),
      service,
      hooks: {
        beforeClose(check) {
          if (check.ticket.id === 13) throw new Error("refused");
        },
        onClaimedInbound: (inbound) => ({ consumed: inbound.message.body === "9", release: true }),
      },
    });
    expect((p.schema.metadata as any).plugin.hooks).toEqual(["beforeClose", "onClaimedInbound"]);
    const broker = new ServiceBroker({ logger: false });
    broker.createService({ ...p.schema });
    await broker.start();
    try {
      const claimed = { id: "1:x", tenantId: 1, ref: "r", ticketId: null, connectionId: 2, contact: { id: 3, name: "Ana", number: null }, message: { body: "9", mediaType: null, timestamp: 1 }, at: 1 };
      expect(await broker.call("v2.ai-echo.claimedInbound", claimed)).toEqual({ consumed: true, release: true });
      expect(await broker.call("v2.ai-echo.claimedInbound", { ...claimed, message: { ...claimed.message, body: "x" } })).toEqual({ consumed: false, release: true });
      expect(await broker.call("v2.ai-echo.ticketBeforeClose", { tenantId: 1, userId: 2, ticket: { id: 12 } })).toEqual({ allowed: true });
      await expect(broker.call("v2.ai-echo.ticketBeforeClose", { tenantId: 1, userId: 2, ticket: { id: 13 } })).rejects.toThrow("refused");
    } finally {
      await broker.stop();
    }
    expect(() => definePlugin({ pkgJson: pkg(), service, hooks: { afterClose: () => undefined } as never })).toThrow(/hooks\.afterClose is not a core hook/);
    expect(() => definePlugin({ pkgJson: pkg(), service: { actions: { ticketBeforeClose: () => 1 } }, hooks: { beforeClose: () => undefined } })).toThrow(/actions\.ticketBeforeClose is made by definePlugin/);
  });
});

describe("isDefinedPlugin / findDefinedPlugin", () => {
  const p = definePlugin({ pkgJson: pkg(), service });

  it("refuses untagged or differently tagged objects", () => {
    expect(isDefinedPlugin(null)).toBe(false);
    expect(isDefinedPlugin({ ...service, name: "ai-echo" })).toBe(false);
    expect(isDefinedPlugin({ ...p, $$openatendePlugin: 2 })).toBe(false);
    expect(isDefinedPlugin({ ...p, schema: undefined })).toBe(false);
  });

  it("finds the plugin as module.exports, default export or a single named export", () => {
    expect(findDefinedPlugin(p)).toBe(p);
    expect(findDefinedPlugin({ default: p, echoPlugin: p })).toBe(p);
    expect(findDefinedPlugin({ echoPlugin: p, helper: () => 1 })).toBe(p);
    expect(findDefinedPlugin({ a: p, b: definePlugin({ pkgJson: pkg("3.0.0"), service }) })).toBeUndefined();
    expect(findDefinedPlugin({ schema: service })).toBeUndefined();
    expect(findDefinedPlugin(undefined)).toBeUndefined();
  });
});
