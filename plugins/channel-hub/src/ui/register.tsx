import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { validateHub } from "./validate";

/** The hub plugin's UI: its part of the connection form. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-hub",
    component: lazy(() => import("./ConnectForm")),
    validate: validateHub,
    // The webhook secret of a new connection is made by the form itself (one per form).
    defaults: { variant: "facebook" },
  });
});
