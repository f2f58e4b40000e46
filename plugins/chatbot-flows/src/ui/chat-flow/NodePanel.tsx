/**
 * The side panel editing the selected node: its name, then what its type holds (message
 * interactions, question, menu, conditions, transfer target, webhook, end), and its removal.
 * The start node has only a name and cannot be removed (a flow has exactly one).
 */
import { Button, Checkbox, Input, Select, Switch, Typography, theme } from "antd";
import { CloseOutlined, DeleteOutlined } from "@ant-design/icons";
import { WEBHOOK_FIELDS, type NodeData } from "../../model";
import type { RfNode } from "./convert";
import { NODE_COLORS, useBuilder } from "./context";
import { ConditionsEditor } from "./ConditionsEditor";
import { Field } from "./Field";
import { InteractionsEditor } from "./InteractionsEditor";
import { MenuEditor } from "./MenuEditor";
import { NODE_ICONS } from "./nodes";

type Of<T extends NodeData["type"]> = Extract<NodeData, { type: T }>;

function QuestionEditor({ data, onChange }: { data: Of<"question">; onChange: (d: Of<"question">) => void }) {
  const b = useBuilder();
  const isVar = data.saveTo.startsWith("var.");
  return (
    <>
      <Field label={b.tr("questionText")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} value={data.text} maxLength={1024} onChange={(e) => onChange({ ...data, text: e.target.value })} data-testid="flow-question-text" />
      </Field>
      <Field label={b.tr("saveTo")}>
        <Select
          style={{ width: "100%" }}
          value={isVar ? "var" : data.saveTo}
          options={[
            { value: "contact.name", label: b.tr("saveToName") },
            { value: "contact.email", label: b.tr("saveToEmail") },
            { value: "var", label: b.tr("saveToVar") },
          ]}
          onChange={(v) => onChange({ ...data, saveTo: v === "var" ? "var.answer" : (v as "contact.name" | "contact.email") })}
        />
      </Field>
      {isVar ? (
        <Field label={b.tr("varName")} hint={b.tr("varHint", { example: "{{var.answer}}" })}>
          <Input value={data.saveTo.slice(4)} maxLength={40} onChange={(e) => onChange({ ...data, saveTo: `var.${e.target.value.replace(/[^A-Za-z0-9_]/g, "")}` })} />
        </Field>
      ) : null}
      <Field label={b.tr("validate")}>
        <Select style={{ width: "100%" }} value={data.validate} options={(["any", "email", "number"] as const).map((v) => ({ value: v, label: b.tr(`validate_${v}`) }))} onChange={(validate) => onChange({ ...data, validate })} />
      </Field>
      <Field label={b.tr("retryMessage")} hint={b.tr("retryHint")}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} value={data.retryMessage ?? ""} maxLength={1024} onChange={(e) => onChange({ ...data, retryMessage: e.target.value || undefined })} />
      </Field>
    </>
  );
}

function TransferEditor({ data, onChange }: { data: Of<"transfer">; onChange: (d: Of<"transfer">) => void }) {
  const b = useBuilder();
  const opts = (list: { id: number; name: string }[]) => list.map((x) => ({ value: x.id, label: x.name }));
  return (
    <>
      <Field label={b.tr("queue")} hint={b.tr("transferHint")}>
        <Select allowClear showSearch={{ optionFilterProp: "label" }} style={{ width: "100%" }} value={data.queueId ?? undefined} options={opts(b.queues)} onChange={(v) => onChange({ ...data, queueId: v ?? null })} data-testid="flow-transfer-queue" />
      </Field>
      <Field label={b.tr("user")}>
        <Select allowClear showSearch={{ optionFilterProp: "label" }} style={{ width: "100%" }} value={data.userId ?? undefined} options={opts(b.users)} onChange={(v) => onChange({ ...data, userId: v ?? null })} data-testid="flow-transfer-user" />
      </Field>
      <Field label={b.tr("transferMessage")}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} value={data.message ?? ""} maxLength={1024} onChange={(e) => onChange({ ...data, message: e.target.value || undefined })} />
      </Field>
    </>
  );
}

function WebhookEditor({ data, onChange }: { data: Of<"webhook">; onChange: (d: Of<"webhook">) => void }) {
  const b = useBuilder();
  const urlBad = data.url !== "" && !/^https?:\/\/[^\s]+$/i.test(data.url);
  return (
    <>
      <Field label={b.tr("webhookUrl")} hint={b.tr("webhookHint")} error={urlBad ? b.tr("webhookUrlBad") : null}>
        <Input value={data.url} maxLength={2048} placeholder="https://" status={urlBad ? "error" : undefined} onChange={(e) => onChange({ ...data, url: e.target.value.trim() })} data-testid="flow-webhook-url" />
      </Field>
      <Field label={b.tr("webhookMethod")}>
        <Select style={{ width: 120 }} value={data.method} options={(["POST", "PUT", "GET"] as const).map((m) => ({ value: m, label: m }))} onChange={(method) => onChange({ ...data, method })} />
      </Field>
      <Field label={b.tr("webhookFields")}>
        <Checkbox.Group
          style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 4 }}
          value={data.fields}
          options={WEBHOOK_FIELDS.map((f) => ({ value: f, label: b.tr(`whField.${f}`) }))}
          onChange={(v) => onChange({ ...data, fields: WEBHOOK_FIELDS.filter((f) => v.includes(f)) })}
          data-testid="flow-webhook-fields"
        />
      </Field>
    </>
  );
}

function EndEditor({ data, onChange }: { data: Of<"end">; onChange: (d: Of<"end">) => void }) {
  const b = useBuilder();
  return (
    <>
      <Field label={b.tr("endMessage")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} value={data.message ?? ""} maxLength={1024} onChange={(e) => onChange({ ...data, message: e.target.value || undefined })} data-testid="flow-end-message" />
      </Field>
      <Field label={b.tr("endClose")} hint={b.tr(data.close ? "endCloseHint" : "endOpenHint")}>
        <Switch checked={data.close} onChange={(close) => onChange({ ...data, close })} data-testid="flow-end-close" />
      </Field>
    </>
  );
}

function Body({ data, onChange }: { data: NodeData; onChange: (d: NodeData) => void }) {
  const b = useBuilder();
  switch (data.type) {
    case "start":
      return <Typography.Paragraph type="secondary">{b.tr("startHint")}</Typography.Paragraph>;
    case "message":
      return <InteractionsEditor value={data.interactions} onChange={(interactions) => onChange({ ...data, interactions })} />;
    case "question":
      return <QuestionEditor data={data} onChange={onChange} />;
    case "menu":
      return <MenuEditor data={data} onChange={onChange} />;
    case "condition":
      return <ConditionsEditor data={data} onChange={onChange} />;
    case "transfer":
      return <TransferEditor data={data} onChange={onChange} />;
    case "webhook":
      return <WebhookEditor data={data} onChange={onChange} />;
    case "end":
      return <EndEditor data={data} onChange={onChange} />;
  }
}

export function NodePanel({ node, onChange, onDelete, onClose }: { node: RfNode; onChange: (d: NodeData) => void; onDelete: () => void; onClose: () => void }) {
  const { token: tk } = theme.useToken();
  const b = useBuilder();
  const type = node.data.type;
  return (
    <aside data-testid="flow-node-panel" data-node-id={node.id} style={{ width: 340, flex: "none", borderInlineStart: `1px solid ${tk.colorBorderSecondary}`, background: tk.colorBgContainer, display: "flex", flexDirection: "column", minHeight: 0 }}>
      <div style={{ display: "flex", alignItems: "center", gap: 8, padding: "10px 12px", borderBottom: `1px solid ${tk.colorBorderSecondary}`, color: NODE_COLORS[type], fontWeight: 600 }}>
        {NODE_ICONS[type]}
        <span>{b.tr(`type.${type}`)}</span>
        <Button size="small" type="text" icon={<CloseOutlined />} style={{ marginInlineStart: "auto" }} onClick={onClose} aria-label={b.tr("closePanel")} data-testid="flow-node-panel-close" />
      </div>
      <div style={{ padding: 12, overflowY: "auto", flex: 1 }}>
        <Field label={b.tr("nodeName")}>
          <Input value={node.data.name} maxLength={60} onChange={(e) => onChange({ ...node.data, name: e.target.value })} data-testid="flow-node-name-input" />
        </Field>
        <Body data={node.data} onChange={onChange} />
      </div>
      {type !== "start" ? (
        <div style={{ padding: "8px 12px", borderTop: `1px solid ${tk.colorBorderSecondary}` }}>
          <Button danger block icon={<DeleteOutlined />} onClick={onDelete} data-testid="flow-node-delete">
            {b.tr("deleteNode")}
          </Button>
        </div>
      ) : null}
    </aside>
  );
}
