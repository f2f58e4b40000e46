/**
 * The settings child /configuracoes/chat-flow (admins only): the flow list there, and the
 * builder at /configuracoes/chat-flow/builder/:id. The shell routes every sub-path of a
 * plugin's settings section to the section's page, so both live here, told apart by the path.
 */
import { Result } from "antd";
import { useLocation, useNavigate } from "react-router-dom";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { useRuntime } from "../runtime";
import { chatFlowT } from "./context";
import { FlowBuilder } from "./FlowBuilder";
import { FlowList } from "./FlowList";
import { chatFlowTexts } from "./texts";

export const LIST_PATH = "/configuracoes/chat-flow";
export const builderPath = (id: number) => `${LIST_PATH}/builder/${id}`;

/** The flow id of a builder path, null for the list, NaN for a path of neither. */
export function flowIdOf(pathname: string): number | null {
  const rest = pathname.replace(/\/+$/, "").slice(LIST_PATH.length);
  if (!rest) return null;
  const m = /^\/builder\/(\d{1,10})$/.exec(rest);
  return m ? Number(m[1]) : NaN;
}

/** The runtimes that have this screen's texts (register.tsx adds them too; adding twice is harmless). */
const withTexts = new WeakSet<ShellRuntime>();

function Page({ rt }: { rt: ShellRuntime }) {
  if (!withTexts.has(rt)) {
    rt.addTranslations(chatFlowTexts);
    withTexts.add(rt);
  }
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tr = chatFlowT(rt);
  if (!rt.user.isAdmin) return <Result status="403" title={tr("adminOnly")} />;
  const id = flowIdOf(pathname);
  if (id === null) return <FlowList rt={rt} onOpen={(fid) => navigate(builderPath(fid))} />;
  if (Number.isNaN(id)) return <Result status="404" title={tr("notFound")} />;
  return <FlowBuilder key={id} rt={rt} flowId={id} onBack={() => navigate(LIST_PATH)} />;
}

/** Mounted with the plugin's runtime as a prop, or without props (the runtime register() kept). */
export default function ChatFlowPage({ runtime }: { runtime?: ShellRuntime }) {
  return runtime ? <Page rt={runtime} /> : <PageFromRegister />;
}

function PageFromRegister() {
  return <Page rt={useRuntime()} />;
}
