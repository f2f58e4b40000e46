import { runChannelConformance } from "@openatende/plugin-sdk";
import plugin from "../src/service";

/** The web-chat plugin honours the channel contract (SDK conformance kit, fake core). */
runChannelConformance({
  plugin,
  settings: { title: "Conformance", mainColor: "#123456", autoOpen: false },
  driver: {
    // A visitor writes through the widget's route; the key is the widget's client message id.
    async triggerInbound(broker, ref, key) {
      const token = `conformance:${ref.tenantId}:${ref.connectionId}`;
      const { visitorId } = (await broker.call("v1.channel-webchat.session", { token })) as { visitorId: string };
      await broker.call("v1.channel-webchat.visitorSend", { token, visitorId: "00000000-0000-4000-8000-000000000001", body: `hello ${visitorId.slice(0, 4)}`, clientMessageId: key });
    },
  },
});
