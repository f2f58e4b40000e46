import { useEffect, useState } from "react";
import { Form, Select } from "antd";
import type { FormSectionProps } from "@openatende/plugin-sdk/ui";
import type { Flow } from "../../model";
import { listFlows } from "../auto-resposta/api";

/**
 * The Chatbot section of the connection and queue forms: the entry flow (an active entry
 * auto-reply or chat flow) and the closure flow (an active closure auto-reply). A flow chosen
 * earlier and since switched off stays shown, so the form never drops it silently.
 */
export function ChatbotSection({ runtime, value, onChange }: FormSectionProps) {
  const t = runtime.t;
  const [flows, setFlows] = useState<Flow[] | null>(null);
  useEffect(() => {
    let live = true;
    listFlows(runtime.api, ["entry", "chat", "closure"], { silent: true }).then(
      (list) => live && setFlows(list),
      (err) => {
        if (!live) return;
        setFlows([]);
        runtime.notify.error(err);
      },
    );
    return () => {
      live = false;
    };
  }, [runtime]);

  const entryFlowId = typeof value.entryFlowId === "number" ? value.entryFlowId : null;
  const closureFlowId = typeof value.closureFlowId === "number" ? value.closureFlowId : null;
  const options = (kinds: string[], chosen: number | null) =>
    (flows ?? [])
      .filter((f) => kinds.includes(f.kind) && (f.active || f.id === chosen))
      .map((f) => ({ value: f.id, label: kinds.length > 1 ? `${f.name} · ${t(`kind_${f.kind}`)}` : f.name, disabled: !f.active }));
  // The other keys (what was loaded) stay: the section saves only a change.
  const set = (patch: Record<string, number | null>) => onChange({ ...value, entryFlowId, closureFlowId, ...patch });

  return (
    <Form layout="vertical" component="div" data-testid="chatbot-section">
      <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))", columnGap: 16 }}>
        <Form.Item label={t("entryFlow")} extra={t("entryFlowHint")}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            loading={flows === null}
            placeholder={t("noFlow")}
            notFoundContent={t("noFlows")}
            value={entryFlowId ?? undefined}
            options={options(["entry", "chat"], entryFlowId)}
            onChange={(v) => set({ entryFlowId: v ?? null })}
            data-testid="chatbot-entry-flow"
          />
        </Form.Item>
        <Form.Item label={t("closureFlow")} extra={t("closureFlowHint")}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            loading={flows === null}
            placeholder={t("noFlow")}
            notFoundContent={t("noFlows")}
            value={closureFlowId ?? undefined}
            options={options(["closure"], closureFlowId)}
            onChange={(v) => set({ closureFlowId: v ?? null })}
            data-testid="chatbot-closure-flow"
          />
        </Form.Item>
      </div>
    </Form>
  );
}
