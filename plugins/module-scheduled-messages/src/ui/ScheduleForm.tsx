/**
 * The create / edit dialog of a scheduled message: text, day/month/year hour:minute, contact
 * (searched by name or number), connection, user, and single or recurrent (daily, weekly,
 * biweekly, monthly or chosen weekdays, until an end date). From a ticket the contact and the
 * connection are the ticket's. The server checks every rule again and answers its code, shown
 * as the shell's error notice.
 */
import { useEffect, useMemo, useState } from "react";
import { Checkbox, Form, Input, Modal, Segmented, Select, type ButtonProps } from "antd";
import type { ShellRuntime, UiTicket } from "@openatende/plugin-sdk/ui";
import { browserTimeZone, formatDate, formatDateTime, maskDateTime, parseDateEnd, parseDateTime } from "./datetime";
import { WEEKDAY_KEYS } from "./texts";
import { RECURRENCES, type Named, type Options, type Recurrence, type ScheduledMessage } from "./types";

export interface ScheduleFormProps {
  runtime: ShellRuntime;
  /** The message edited; absent: a new one. */
  editing?: ScheduledMessage | null;
  /** Scheduling from a ticket: its contact and connection, fixed. */
  ticket?: UiTicket | null;
  initialBody?: string;
  onSaved(m: ScheduledMessage): void;
  onClose(): void;
}

interface State {
  body: string;
  date: string;
  contactId: number | null;
  connectionId: number | null;
  userId: number | null;
  type: "single" | "recurrent";
  recurrence: Recurrence;
  customDays: number[];
  until: string;
}

function initial(p: ScheduleFormProps): State {
  const e = p.editing;
  if (e) {
    return {
      body: e.body,
      date: formatDateTime(e.nextDate ?? e.scheduleDate),
      contactId: e.contactId,
      connectionId: e.connectionId,
      userId: e.userId,
      type: e.type,
      recurrence: e.recurrence ?? "daily",
      customDays: e.customDays ?? [],
      until: e.recurrentUntil ? formatDate(e.recurrentUntil) : "",
    };
  }
  return { body: p.initialBody ?? "", date: "", contactId: p.ticket?.contactId ?? null, connectionId: p.ticket?.connectionId ?? null, userId: p.runtime.user.id, type: "single", recurrence: "daily", customDays: [], until: "" };
}

export default function ScheduleForm(props: ScheduleFormProps) {
  const { runtime, editing, ticket } = props;
  const t = runtime.t;
  const [s, setS] = useState<State>(() => initial(props));
  const [saving, setSaving] = useState(false);
  const [touched, setTouched] = useState(false);
  const [options, setOptions] = useState<Options>({ contacts: [], users: [] });
  const [connections, setConnections] = useState<Named[]>([]);
  const [search, setSearch] = useState("");
  const set = (patch: Partial<State>) => setS((x) => ({ ...x, ...patch }));

  useEffect(() => {
    runtime.api
      .get<Named[]>("/connections", { silent: true })
      .then((rows) => setConnections(Array.isArray(rows) ? rows.map((c) => ({ id: c.id, name: c.name })) : []))
      .catch(() => undefined);
  }, [runtime]);

  useEffect(() => {
    const h = setTimeout(() => {
      runtime.api
        .get<Options>("/scheduled-messages/options", { query: { q: search || undefined }, silent: true })
        .then(setOptions)
        .catch(() => undefined);
    }, 250);
    return () => clearTimeout(h);
  }, [runtime, search]);

  const contactOptions = useMemo(() => {
    const list = options.contacts.map((c) => ({ value: c.id, label: c.number ? `${c.name} (${c.number})` : c.name }));
    if (editing && !list.some((o) => o.value === editing.contactId)) list.unshift({ value: editing.contactId, label: editing.contactName ?? `#${editing.contactId}` });
    return list;
  }, [options.contacts, editing]);

  const when = parseDateTime(s.date);
  const until = s.until ? parseDateEnd(s.until) : null;
  const dateBad = touched && when === null;
  const untilBad = touched && s.type === "recurrent" && until === null;

  const save = async () => {
    setTouched(true);
    if (when === null || (s.type === "recurrent" && until === null)) return;
    setSaving(true);
    const body = {
      body: s.body,
      scheduleDate: new Date(when).toISOString(),
      contactId: s.contactId ?? undefined,
      connectionId: s.connectionId ?? undefined,
      userId: s.userId ?? undefined,
      type: s.type,
      recurrence: s.type === "recurrent" ? s.recurrence : null,
      customDays: s.type === "recurrent" && s.recurrence === "custom" ? s.customDays : null,
      recurrentUntil: s.type === "recurrent" && until !== null ? new Date(until).toISOString() : null,
      timeZone: browserTimeZone(),
    };
    try {
      const saved = editing
        ? await runtime.api.patch<ScheduledMessage>("/scheduled-messages", { id: editing.id, ...body })
        : await runtime.api.post<ScheduledMessage>("/scheduled-messages", { ...body, ticketId: ticket?.id ?? null });
      runtime.notify.success(t("saved"));
      props.onSaved(saved);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={editing ? t("edit") : t("new")}
      okText={t("save")}
      cancelText={t("cancelDialog")}
      onOk={() => void save()}
      onCancel={props.onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "schedule-save" } as ButtonProps}
      data-testid="schedule-form"
    >
      <Form layout="vertical" component="div">
        <Form.Item label={t("body")} required>
          <Input.TextArea rows={4} maxLength={4096} showCount placeholder={t("bodyPlaceholder")} value={s.body} onChange={(e) => set({ body: e.target.value })} data-testid="schedule-body" />
        </Form.Item>
        <Form.Item label={t("date")} required validateStatus={dateBad ? "error" : undefined} help={dateBad ? t("dateInvalid") : undefined}>
          <Input inputMode="numeric" placeholder={t("datePlaceholder")} value={s.date} onChange={(e) => set({ date: maskDateTime(e.target.value) })} data-testid="schedule-date" />
        </Form.Item>
        {ticket ? null : (
          <Form.Item label={t("contact")} required>
            <Select
              showSearch
              filterOption={false}
              onSearch={setSearch}
              placeholder={t("contactSearch")}
              value={s.contactId ?? undefined}
              onChange={(v: number) => set({ contactId: v })}
              options={contactOptions}
              data-testid="schedule-contact"
            />
          </Form.Item>
        )}
        {ticket ? null : (
          <Form.Item label={t("connection")} required>
            <Select value={s.connectionId ?? undefined} onChange={(v: number) => set({ connectionId: v })} options={connections.map((c) => ({ value: c.id, label: c.name }))} data-testid="schedule-connection" />
          </Form.Item>
        )}
        <Form.Item label={t("user")} required>
          <Select showSearch optionFilterProp="label" value={s.userId ?? undefined} onChange={(v: number) => set({ userId: v })} options={options.users.map((u) => ({ value: u.id, label: u.name }))} data-testid="schedule-user" />
        </Form.Item>
        <Form.Item label={t("type")}>
          <Segmented<State["type"]>
            value={s.type}
            onChange={(v) => set({ type: v })}
            options={[
              { value: "single", label: t("single") },
              { value: "recurrent", label: t("recurrent") },
            ]}
            data-testid="schedule-type"
          />
        </Form.Item>
        {s.type === "recurrent" ? (
          <>
            <Form.Item label={t("recurrence")} required>
              <Select<Recurrence> value={s.recurrence} onChange={(v) => set({ recurrence: v })} options={RECURRENCES.map((r) => ({ value: r, label: t(r) }))} data-testid="schedule-recurrence" />
            </Form.Item>
            {s.recurrence === "custom" ? (
              <Form.Item label={t("customDays")} required>
                <Checkbox.Group value={s.customDays} onChange={(v) => set({ customDays: (v as number[]).slice().sort() })} options={WEEKDAY_KEYS.map((k, i) => ({ value: i, label: t(k) }))} data-testid="schedule-days" />
              </Form.Item>
            ) : null}
            <Form.Item label={t("until")} required validateStatus={untilBad ? "error" : undefined} help={untilBad ? t("dateInvalid") : undefined}>
              <Input inputMode="numeric" placeholder={t("untilPlaceholder")} value={s.until} onChange={(e) => set({ until: maskDateTime(e.target.value, false) })} data-testid="schedule-until" />
            </Form.Item>
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
