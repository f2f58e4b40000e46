import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerTemplatePicker } from "@openatende/whatsapp-cloud/src/ui/register-picker";
import { registerTemplatesScreen } from "@openatende/whatsapp-cloud/src/ui/templates-screen";
import { texts } from "./texts";
import { validate360 } from "./validate";

/** The 360dialog plugin's UI: its part of the connection form, and the Cloud API's template screen and picker (the library's, shared with channel-waba). */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  registerTemplatePicker(runtime);
  registerTemplatesScreen(runtime);
  runtime.registerConnectForm({
    type: "channel-360",
    component: lazy(() => import("./ConnectForm")),
    validate: validate360,
  });
});
