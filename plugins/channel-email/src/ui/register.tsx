import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { DEFAULTS, validateEmail } from "./validate";

/** The e-mail plugin's UI: its part of the connection form (IMAP, SMTP, sender; test buttons). */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-email",
    component: lazy(() => import("./ConnectForm")),
    validate: validateEmail,
    defaults: DEFAULTS,
  });
});
