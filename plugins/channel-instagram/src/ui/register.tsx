import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { DEFAULT_VERSION, validateInstagram } from "./validate";

/** The Instagram plugin's UI: its part of the connection form. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-instagram",
    component: lazy(() => import("./ConnectForm")),
    validate: validateInstagram,
    // The verification token of a new connection is made by the form itself.
    defaults: { flavour: "instagram", apiVersion: DEFAULT_VERSION, humanAgentTag: false },
  });
});
