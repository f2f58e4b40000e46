import { createElement, lazy } from "react";
import { LoginOutlined, UsergroupAddOutlined } from "@ant-design/icons";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { labels, texts } from "./texts";
import { validateWhatsApp } from "./validate";
import { PLUGIN_TYPE } from "./shared";

/**
 * The WhatsApp plugin's UI: its part of the connection form (link by QR code or pairing code,
 * reset, health, import settings, proxy), and two buttons of the Groups tab for admins (a new
 * WhatsApp group, and a group's join requests).
 */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.registerConnectForm({
    type: PLUGIN_TYPE,
    component: lazy(() => import("./ConnectForm")),
    validate: validateWhatsApp,
    defaults: { importSettings: { messages: false, groupMessages: false, closeTickets: false, contacts: false } },
  });
  runtime.registerChatListAction({
    key: "new-group",
    tabs: ["group"],
    label: labels("groupNew"),
    icon: createElement(UsergroupAddOutlined),
    access: "admin",
    component: lazy(() => import("./NewGroupModal")),
  });
  runtime.registerChatListAction({
    key: "join-requests",
    tabs: ["group"],
    label: labels("jrTitle"),
    icon: createElement(LoginOutlined),
    access: "admin",
    component: lazy(() => import("./JoinRequestsModal")),
  });
});
