import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { validateWuzapi } from "./validate";

/** The wuzapi plugin's UI: its part of the connection form. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-wuzapi",
    component: lazy(() => import("./ConnectForm")),
    validate: validateWuzapi,
    defaults: { webhookFormat: "json" },
  });
});
