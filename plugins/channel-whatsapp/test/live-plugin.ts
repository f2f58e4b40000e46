/**
 * Test helper: the WhatsApp plugin of a core started in the test's process (core/test/helpers
 * startCore), made again with fake sockets. The plugin host loaded the real plugin with its
 * own database ready; this replaces that service with `createWhatsAppPlugin({ socketFactory })`
 * under the same platform context (Redis, namespace, the host-made database), so everything
 * but WhatsApp itself is the real thing: the core, the gateway's access rules, the plugin's
 * tables, the owner lock. The group routes (src/group-actions.ts) are added to its actions
 * for as long as the service does not list them itself.
 */
import type { Service, ServiceBroker } from "moleculer";
import { pluginContext, withPluginContext } from "@openatende/plugin-sdk";
import { createWhatsAppPlugin, type WhatsAppPluginOptions } from "../src/service";
import { FakeSocketFactory } from "./session/support/fake-socket";

export const SERVICE = "v1.channel-whatsapp";

export interface FakeWhatsApp {
  factory: FakeSocketFactory;
  service: Service;
}

export async function useFakeWhatsApp(broker: ServiceBroker, options: Omit<WhatsAppPluginOptions, "socketFactory"> = {}): Promise<FakeWhatsApp> {
  const live = broker.getLocalService({ name: "channel-whatsapp", version: 1 }) as Service | undefined;
  if (!live) throw new Error(`${SERVICE} is not running in this process (was the plugin refused? see the core's log)`);
  const context = pluginContext(live);
  await broker.destroyService(live);

  const factory = new FakeSocketFactory();
  const plugin = createWhatsAppPlugin({ ...options, socketFactory: () => factory });
  const service = broker.createService(withPluginContext(plugin.schema, context));
  await broker.waitForServices([SERVICE], 15_000);
  await routesOf(broker);
  return { factory, service };
}

/** Waits until the gateway routes to the new service's actions (its aliases are rebuilt with a debounce). */
async function routesOf(broker: ServiceBroker): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const aliases = (await broker.call("api.listAliases")) as Array<{ actionName?: string; action?: string }>;
    const names = aliases.map((a) => a.actionName ?? a.action);
    if (names.includes(`${SERVICE}.groupCreate`) && names.includes(`${SERVICE}.pairingCode`)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the gateway did not route to the WhatsApp plugin's actions");
}
