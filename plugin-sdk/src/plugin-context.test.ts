import { pluginContext, PLUGIN_CONTEXT_SETTING, withPluginContext } from "./plugin-context";

const base = { namespace: "oa", redisUrl: "redis://127.0.0.1:6379", dataDir: "/data", publicUrl: "http://localhost", localFiles: true, external: false };

describe("plugin context: the Redis prefix", () => {
  it("hands the plugin the host's redisPrefix, namespace kept beside it", () => {
    const ctx = pluginContext(withPluginContext({ name: "p" }, { ...base, redisPrefix: "oa:0b3c" }));
    expect(ctx.redisPrefix).toBe("oa:0b3c");
    expect(ctx.namespace).toBe("oa");
  });

  it("falls back to the namespace when the host gave none (a context made before redisPrefix)", () => {
    expect(pluginContext(withPluginContext({ name: "p" }, base)).redisPrefix).toBe("oa");
    // A host older than the field puts the context in the settings without it.
    expect(pluginContext({ name: "p", settings: { [PLUGIN_CONTEXT_SETTING]: { ...base } } }).redisPrefix).toBe("oa");
  });
});
