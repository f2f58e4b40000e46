import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { validateSms } from "./validate";

/** The SMS plugin's UI: its part of the connection form (account, token, credits, callbacks). */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-sms",
    component: lazy(() => import("./ConnectForm")),
    validate: validateSms,
    defaults: { provider: "comtele" },
  });
});
