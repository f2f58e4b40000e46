import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { texts } from "./texts";
import { validateTelegram } from "./validate";

/** The Telegram plugin's UI: its part of the connection form. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: "channel-telegram",
    component: lazy(() => import("./ConnectForm")),
    validate: validateTelegram,
    defaults: { mode: "polling" },
  });
});
