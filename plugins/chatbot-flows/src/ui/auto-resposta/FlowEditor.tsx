import { useMemo, useState } from "react";
import { Alert, Button, Divider, Drawer, Form, Input, InputNumber, Radio, Select, Space, Switch } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { DISTRIBUTIONS, type BotSettings } from "../../model";
import { createFlow, updateFlow } from "./api";
import { DESCRIPTION_MAX, LIMITS, MESSAGE_MAX, NAME_MAX, toBody, validate, type Draft, type Problems } from "./rules";
import { StepsEditor } from "./StepsEditor";
import { optionsOf, type Targets } from "./useTargets";

interface Props {
  runtime: ShellRuntime;
  /** The flow edited; absent for a new one. */
  flowId?: number;
  title: string;
  initial: Draft;
  targets: Targets;
  onClose(): void;
  onSaved(): void;
}

/**
 * The auto-reply editor (a drawer over the list): name, description, kind, active, test phone;
 * the bot settings (attempts, wait, distribution, hand-off, invalid answer message); the steps.
 * Problems show once a save was tried, and follow each change after that.
 */
export function FlowEditor({ runtime, flowId, title, initial, targets, onClose, onSaved }: Props) {
  const t = runtime.t;
  const [d, setD] = useState<Draft>(initial);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const problems: Problems = useMemo(() => (tried ? validate(d) : {}), [tried, d]);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const setS = (patch: Partial<BotSettings>) => setD((x) => ({ ...x, settings: { ...x.settings, ...patch } }));
  const help = (field: string) => (problems[field] ? { validateStatus: "error" as const, help: <span data-testid="field-error" data-field={field}>{t(problems[field].key, problems[field].vars)}</span> } : {});

  const save = async () => {
    setTried(true);
    if (Object.keys(validate(d)).length) return;
    setSaving(true);
    try {
      // Errors (a plan's cap, a second initial step, a field) come back as the catalogue's notice.
      if (flowId) await updateFlow(runtime.api, flowId, toBody(d), { successNotice: t("saved") });
      else await createFlow(runtime.api, toBody(d), { successNotice: t("saved") });
      onSaved();
    } catch {
      // shown by the shell's notice
    } finally {
      setSaving(false);
    }
  };

  const queues = optionsOf(targets.queues);
  const users = optionsOf(targets.users);

  return (
    <Drawer
      open
      size={1000}
      title={title}
      onClose={onClose}
      destroyOnHidden
      data-testid="auto-reply-editor"
      extra={
        <Space>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="auto-reply-save">
            {t("save")}
          </Button>
        </Space>
      }
    >
      {tried && Object.keys(problems).length ? <Alert type="error" showIcon title={t("errFix")} style={{ marginBottom: 16 }} data-testid="auto-reply-invalid" /> : null}
      <Form layout="vertical" component="div">
        <div style={{ display: "grid", gridTemplateColumns: "2fr 1fr 1fr", columnGap: 16 }}>
          <Form.Item label={t("name")} required {...help("name")}>
            <Input value={d.name} maxLength={NAME_MAX} onChange={(e) => set({ name: e.target.value })} data-testid="auto-reply-name" />
          </Form.Item>
          <Form.Item label={t("kind")} extra={t(`kindHint_${d.kind}`)}>
            {/* A saved flow keeps its kind (the server changes none): a copy of another kind is a new flow. */}
            <Radio.Group value={d.kind} disabled={flowId !== undefined} onChange={(e) => set({ kind: e.target.value })} optionType="button" data-testid="auto-reply-kind">
              <Radio.Button value="entry" data-testid="auto-reply-kind-entry">{t("kind_entry")}</Radio.Button>
              <Radio.Button value="closure" data-testid="auto-reply-kind-closure">{t("kind_closure")}</Radio.Button>
            </Radio.Group>
          </Form.Item>
          <Form.Item label={t("active")}>
            <Switch checked={d.active} onChange={(v) => set({ active: v })} data-testid="auto-reply-active" />
          </Form.Item>
        </div>
        <div style={{ display: "grid", gridTemplateColumns: "2fr 1fr", columnGap: 16 }}>
          <Form.Item label={t("description")} {...help("description")}>
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={DESCRIPTION_MAX} value={d.description} onChange={(e) => set({ description: e.target.value })} data-testid="auto-reply-description" />
          </Form.Item>
          <Form.Item label={t("testPhone")} extra={t("testPhoneHint")} {...help("testPhone")}>
            <Input value={d.testPhone} maxLength={20} inputMode="numeric" placeholder={t("testPhonePlaceholder")} onChange={(e) => set({ testPhone: e.target.value.replace(/\D/g, "") })} data-testid="auto-reply-test-phone" />
          </Form.Item>
        </div>

        <Divider titlePlacement="start">{t("tabBot")}</Divider>
        <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr 2fr", columnGap: 16 }}>
          <Form.Item label={t("maxAttempts")} extra={t("maxAttemptsHint")} {...help("maxAttempts")}>
            <InputNumber min={LIMITS.maxAttempts[0]} max={LIMITS.maxAttempts[1]} precision={0} value={d.settings.maxAttempts} onChange={(v) => setS({ maxAttempts: v ?? NaN })} data-testid="auto-reply-max-attempts" />
          </Form.Item>
          <Form.Item label={t("waitMinutes")} extra={t("waitMinutesHint")} {...help("waitMinutes")}>
            <InputNumber min={LIMITS.waitMinutes[0]} max={LIMITS.waitMinutes[1]} precision={0} value={d.settings.waitMinutes} onChange={(v) => setS({ waitMinutes: v ?? NaN })} data-testid="auto-reply-wait" />
          </Form.Item>
          <Form.Item label={t("distribute")}>
            <Select value={d.settings.distribute} onChange={(v) => setS({ distribute: v })} options={DISTRIBUTIONS.map((x) => ({ value: x, label: t(`distribute_${x}`) }))} data-testid="auto-reply-distribute" />
          </Form.Item>
        </div>
        <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", columnGap: 16 }}>
          <Form.Item label={t("handoffQueue")} extra={t("handoffHint")}>
            <Select allowClear showSearch={{ optionFilterProp: "label" }} placeholder={t("noneQueue")} loading={targets.loading} value={d.settings.handoffQueueId ?? undefined} options={queues} onChange={(v) => setS({ handoffQueueId: v ?? null })} data-testid="auto-reply-handoff-queue" />
          </Form.Item>
          <Form.Item label={t("handoffUser")}>
            <Select allowClear showSearch={{ optionFilterProp: "label" }} placeholder={t("none")} loading={targets.loading} value={d.settings.handoffUserId ?? undefined} options={users} onChange={(v) => setS({ handoffUserId: v ?? null })} data-testid="auto-reply-handoff-user" />
          </Form.Item>
        </div>
        <Form.Item label={t("invalidMessage")} extra={t("invalidMessageHint")}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={MESSAGE_MAX} value={d.settings.invalidMessage} onChange={(e) => setS({ invalidMessage: e.target.value })} data-testid="auto-reply-invalid-message" />
        </Form.Item>

        <Divider titlePlacement="start">{t("tabSteps")}</Divider>
        <StepsEditor steps={d.steps} onChange={(steps) => set({ steps })} problems={problems} targets={targets} t={t} />
      </Form>
    </Drawer>
  );
}
