import { busKeyOf, isEventForPlugins, isPluginAction, isPluginEvent, pluginTokenOf, pluginTokensEnv, sign, signedText, verify } from "./caller-identity";

describe("who is calling: keys, signatures and what plugins may call", () => {
  const key = busKeyOf("a-secret-of-at-least-thirty-two-characters");

  it("derives one token per plugin from the bus key, and the bus key from the secret", () => {
    expect(pluginTokenOf(key, "a")).toBe(pluginTokenOf(busKeyOf("a-secret-of-at-least-thirty-two-characters"), "a"));
    expect(pluginTokenOf(key, "a")).not.toBe(pluginTokenOf(key, "b"));
    expect(pluginTokenOf(key, "a")).not.toBe(pluginTokenOf(busKeyOf("another-secret-of-at-least-thirty-two-chars"), "a"));
    expect(pluginTokensEnv(key, ["a", "b"])).toBe(`a:${pluginTokenOf(key, "a")},b:${pluginTokenOf(key, "b")}`);
  });

  it("binds a signature to the packet's kind, context id, name and target node", () => {
    const sig = sign(key, signedText("REQ", "ctx-1", "v1.p.send", "plugin-node"));
    expect(verify(key, signedText("REQ", "ctx-1", "v1.p.send", "plugin-node"), sig)).toBe(true);
    expect(verify(key, signedText("REQ", "ctx-1", "users.createAdmin", "plugin-node"), sig)).toBe(false);
    expect(verify(key, signedText("REQ", "ctx-1", "v1.p.send", "core-node"), sig)).toBe(false);
    expect(verify(key, signedText("REQ", "ctx-2", "v1.p.send", "plugin-node"), sig)).toBe(false);
    expect(verify(key, signedText("EVENT", "ctx-1", "v1.p.send", "plugin-node"), sig)).toBe(false);
    expect(verify(pluginTokenOf(key, "p"), signedText("REQ", "ctx-1", "v1.p.send", "plugin-node"), sig)).toBe(false);
    for (const bad of [undefined, null, 42, "", "x".repeat(500)]) expect(verify(key, signedText("REQ", "ctx-1", "v1.p.send", "plugin-node"), bad)).toBe(false);
  });

  it("lets plugins call the SDK's actions and the platform service, nothing else; no plugin event reaches the core", () => {
    for (const a of ["channels.inbound", "channelFiles.read", "plugins.isEnabled", "plugins.installationPrefix", "api.rateLimit", "scheduler.schedule", "platform.tickets.get"]) expect({ a, ok: isPluginAction(a) }).toEqual({ a, ok: true });
    for (const a of ["users.createAdmin", "tenants.list", "connections.getInternal", "channels.deliver", "platformX.y", "$node.list"]) expect({ a, ok: isPluginAction(a) }).toEqual({ a, ok: false });
    expect(isPluginEvent("connections.changed")).toBe(false);
    expect(isEventForPlugins("plugins.changed")).toBe(true);
    expect(isEventForPlugins("tickets.created")).toBe(false);
  });
});
