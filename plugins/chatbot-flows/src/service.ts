/**
 * chatbot-flows (spec §3 Auto-reply flow, Flow nodes, Flow bot settings; §5; §6 one active
 * chatflow on the free plan): the flows store and its routes (src/flows/) and the engine that
 * runs the flows on the tickets the core hands to the plugin (src/engine/).
 *
 * The engine reads flows through a FlowSource, the store the service opens when it starts; the
 * service merges the engine's chatbot handler, core events, job and runs actions and start.
 * One store per loaded plugin module: a process that loads the plugin for two cores of the same
 * database (a cluster test) reads the same rows through either.
 */
import type { Service } from "moleculer";
import { definePlugin, openPluginData, pluginContext, type PluginServiceSchema } from "@openatende/plugin-sdk";
import type { Flow, FlowBindingValue } from "./model";
import { enginePart, type FlowSource } from "./engine";
import { bindingActions } from "./flows/binding-routes";
import type { FlowsSelf } from "./flows/context";
import { flowActions } from "./flows/routes";
import { FlowStore } from "./flows/store";

/** The engine's view of the flows: the store of the service once started. */
class StartedFlows implements FlowSource {
  store: FlowStore | null = null;

  private need(): FlowStore {
    if (!this.store) throw new Error("chatbot-flows: the flows store is not open yet (the service has not started)");
    return this.store;
  }

  get(tenantId: number, id: number): Promise<Flow | null> {
    return this.need().get(tenantId, id);
  }

  binding(tenantId: number, scope: "connection" | "queue", targetId: number): Promise<FlowBindingValue | null> {
    return this.need().binding(tenantId, scope, targetId);
  }
}

const flows = new StartedFlows();
const engine = enginePart(flows);

export const chatbotFlowsPlugin = definePlugin({
  pkgJson: require("../package.json"),
  chatbot: engine.chatbot,
  platformEvents: engine.platformEvents,
  service: {
    settings: { rest: "/" },
    async started() {
      const data = await openPluginData(this);
      const store = new FlowStore(data);
      flows.store = store;
      const me = this as unknown as FlowsSelf;
      me.store = store;
      me.runningCount = (tenantId, flowId) => engine.runningCount(tenantId, flowId);
      me.outboundAllow = pluginContext(this).outboundAllow;
      await engine.started(this as unknown as Service, data);
    },
    actions: { ...engine.actions, ...flowActions, ...bindingActions } as PluginServiceSchema["actions"],
  },
});

export default chatbotFlowsPlugin;
