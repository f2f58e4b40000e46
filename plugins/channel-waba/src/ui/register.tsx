import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { registerTemplatePicker } from "@openatende/whatsapp-cloud/src/ui/register-picker";
import { registerTemplatesScreen } from "@openatende/whatsapp-cloud/src/ui/templates-screen";
import { DEFAULT_VERSION, validateWaba } from "./validate";

/** The WABA plugin's UI: its part of the connection form, and the Cloud API's template screen and picker (the library's). */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  registerTemplatePicker(runtime);
  registerTemplatesScreen(runtime);
  runtime.registerConnectForm({
    type: "channel-waba",
    component: lazy(() => import("./ConnectForm")),
    validate: validateWaba,
    defaults: { apiVersion: DEFAULT_VERSION },
  });
});
