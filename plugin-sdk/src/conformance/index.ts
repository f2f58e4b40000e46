/**
 * The conformance kits: the generic one every plugin runs (runPluginConformance, generic.ts),
 * the channel kit, a jest suite a channel plugin runs against itself (which includes the
 * generic rules), and the chatbot kit (runChatbotConformance, chatbot.ts).
 *
 *   // plugins/channel-webchat/test/conformance.test.ts
 *   import { runChannelConformance } from "@openatende/plugin-sdk";
 *   import plugin from "../src/service";
 *   runChannelConformance({ plugin, settings: { … }, driver: { triggerInbound: … } });
 *
 * It boots a real ServiceBroker with a fake core ("channels") and the plugin's service, and
 * proves the plugin honours the channel contract. Call it at the top level of a test file
 * (it declares describe/it blocks with jest's globals).
 */
import {
  ChannelConformanceOptions,
  ConformanceHarness,
  checkActions,
  checkChange,
  checkConnect,
  checkContact,
  checkedChanges,
  checkDefinition,
  checkDisconnect,
  checkInbound,
  checkSend,
  checkStatus,
  checkTest,
  checkUnsupported,
  declaredKinds,
  startHarness,
  undeclaredKinds,
} from "./checks";
import { isDefinedPlugin } from "../define-plugin";
import { checkEvents, checkPluginDefinition, checkRoutes, checkUi } from "./generic";

export * from "./checks";
export * from "./generic";
export { createFakeCore } from "./fake-core";
export type { FakeCore, InvalidCall } from "./fake-core";
export { createLoopbackChannel, loopbackDriver } from "./loopback";
export type { LoopbackOptions, LoopbackFaults } from "./loopback";
export * from "./chatbot";
export { createFakePlatform, isActingCall } from "./chatbot-fake-core";
export type { FakePlatform, FakePlatformCall, FakePlatformOptions, FakePlatformRefusal, FakeTenantWorld } from "./chatbot-fake-core";
export { createMenuChatbot, MENU_TEXT } from "./chatbot-fixture";
export type { MenuChatbotFaults } from "./chatbot-fixture";

export function runChannelConformance(opts: ChannelConformanceOptions & { name?: string }): void {
  const { plugin } = opts;
  const title = opts.name ?? `channel conformance: ${plugin?.id ?? "(not a definePlugin() object)"}`;
  const hookTimeout = Math.max(30_000, (opts.timeoutMs ?? 5000) * 4);

  describe(title, () => {
    let h: ConformanceHarness | undefined;
    const harness = (): ConformanceHarness => {
      if (!h) throw new Error("the conformance harness did not start (see the beforeAll error)");
      return h;
    };
    beforeAll(async () => {
      h = await startHarness(opts);
    }, hookTimeout);
    afterAll(async () => {
      await h?.stop();
    }, hookTimeout);

    it("is a tagged channel plugin whose service follows its manifest and whose settings match its settingsSchema", () => {
      checkDefinition(harness());
    });
    it("follows the rules of every plugin (routes with access and validated params, core events, UI remote)", () => {
      checkPluginDefinition(plugin);
      checkRoutes(plugin);
      checkEvents(plugin);
      checkUi(plugin);
    });
    it("exposes connect, disconnect, status, send and test, each with validated params", () => checkActions(harness()));
    it("connect answers a valid status and reports it through channels.status", () => checkConnect(harness()));
    it("status answers a valid status", () => checkStatus(harness()));
    const valid = isDefinedPlugin(plugin);
    for (const kind of valid ? declaredKinds(plugin) : []) {
      it(`send ${kind} (declared) answers { providerMessageId, timestamp }`, () => checkSend(harness(), kind));
    }
    for (const kind of valid ? undeclaredKinds(plugin) : []) {
      it(`send ${kind} (not declared) throws ERR_CHANNEL_UNSUPPORTED`, () => checkUnsupported(harness(), [kind]));
    }
    it("test answers { ok }", () => checkTest(harness()));
    (opts.driver ? it : it.skip)(
      "an inbound message reaches channels.inbound with its provider id, and a replay carries the same id",
      () => checkInbound(harness()),
      hookTimeout,
    );
    for (const kind of valid ? checkedChanges(plugin, opts.driver) : []) {
      const what = { reaction: "a reaction (and its removal)", edit: "an edit", delete: "a deletion" }[kind as "reaction" | "edit" | "delete"];
      it(`${what} made on the channel reaches channels.change naming the message's provider id`, () => checkChange(harness(), kind), hookTimeout);
    }
    if (opts.driver?.triggerContact) {
      it("what the channel learns of a contact reaches channels.contact for the id its messages come from", () => checkContact(harness()), hookTimeout);
    }
    it("disconnect reports a disconnected status", () => checkDisconnect(harness()));
  });
}
