import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { validateWebchat } from "./validate";

/** The web-chat plugin's UI: its part of the connection form. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-webchat",
    component: lazy(() => import("./ConnectForm")),
    validate: validateWebchat,
    defaults: { mainColor: "#1f6feb", autoOpen: false, offerHelp: false },
  });
});
