/**
 * The flow's own settings (spec §3 Flow bot settings): name, description, active, and the bot's
 * max attempts, wait minutes, distribution, hand-off queue/user and invalid-answer message.
 * Edits change the builder's copy; the toolbar's Save sends them with the graph.
 */
import { Drawer, Input, InputNumber, Radio, Select, Switch } from "antd";
import { DISTRIBUTIONS, type BotSettings } from "../../model";
import { useBuilder } from "./context";
import { Field } from "./Field";

export interface FlowMeta {
  name: string;
  description: string;
  active: boolean;
  settings: BotSettings;
}

export const ATTEMPTS = { min: 1, max: 10 };
export const WAIT_MINUTES = { min: 1, max: 1440 };

export function SettingsDrawer({ open, meta, onChange, onClose, container }: { open: boolean; meta: FlowMeta; onChange: (m: FlowMeta) => void; onClose: () => void; container: () => HTMLElement }) {
  const b = useBuilder();
  const s = meta.settings;
  const set = (patch: Partial<BotSettings>) => onChange({ ...meta, settings: { ...s, ...patch } });
  const opts = (list: { id: number; name: string }[]) => list.map((x) => ({ value: x.id, label: x.name }));
  const clamp = (v: number | null, r: { min: number; max: number }, dflt: number) => Math.max(r.min, Math.min(r.max, Math.round(Number(v ?? dflt)) || dflt));
  return (
    <Drawer open={open} onClose={onClose} title={b.tr("settingsTitle")} size={420} getContainer={container} rootStyle={{ position: "absolute" }} data-testid="flow-settings-drawer">
      <Field label={b.tr("flowName")} error={meta.name.trim() ? null : b.tr("flowNameRequired")}>
        <Input value={meta.name} maxLength={100} onChange={(e) => onChange({ ...meta, name: e.target.value })} data-testid="flow-settings-name" />
      </Field>
      <Field label={b.tr("flowDescription")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} value={meta.description} maxLength={500} onChange={(e) => onChange({ ...meta, description: e.target.value })} />
      </Field>
      <Field label={b.tr("active")} hint={b.tr("activeHint")}>
        <Switch checked={meta.active} onChange={(active) => onChange({ ...meta, active })} />
      </Field>
      <div style={{ fontWeight: 600, margin: "16px 0 8px" }}>{b.tr("botSettings")}</div>
      <Field label={b.tr("maxAttempts")} hint={b.tr("maxAttemptsHint")}>
        <InputNumber min={ATTEMPTS.min} max={ATTEMPTS.max} value={s.maxAttempts} onChange={(v) => set({ maxAttempts: clamp(v, ATTEMPTS, 3) })} data-testid="flow-settings-attempts" />
      </Field>
      <Field label={b.tr("waitMinutes")} hint={b.tr("waitMinutesHint")}>
        <InputNumber min={WAIT_MINUTES.min} max={WAIT_MINUTES.max} value={s.waitMinutes} onChange={(v) => set({ waitMinutes: clamp(v, WAIT_MINUTES, 10) })} data-testid="flow-settings-wait" />
      </Field>
      <Field label={b.tr("distribute")} hint={b.tr(`distributeHint_${s.distribute}`)}>
        <Radio.Group value={s.distribute} onChange={(e) => set({ distribute: e.target.value })} data-testid="flow-settings-distribute">
          {DISTRIBUTIONS.map((d) => (
            <Radio key={d} value={d}>
              {b.tr(`distribute_${d}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Field>
      <Field label={b.tr("handoffQueue")} hint={b.tr("handoffHint")}>
        <Select allowClear showSearch={{ optionFilterProp: "label" }} style={{ width: "100%" }} value={s.handoffQueueId ?? undefined} options={opts(b.queues)} onChange={(v) => set({ handoffQueueId: v ?? null })} />
      </Field>
      <Field label={b.tr("handoffUser")}>
        <Select allowClear showSearch={{ optionFilterProp: "label" }} style={{ width: "100%" }} value={s.handoffUserId ?? undefined} options={opts(b.users)} onChange={(v) => set({ handoffUserId: v ?? null })} />
      </Field>
      <Field label={b.tr("invalidMessage")} hint={b.tr("invalidMessageHint")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} value={s.invalidMessage} maxLength={1024} onChange={(e) => set({ invalidMessage: e.target.value })} />
      </Field>
    </Drawer>
  );
}
