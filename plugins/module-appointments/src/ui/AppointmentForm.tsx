/**
 * The create / edit dialog of an appointment: contact (searched), connection, user, service
 * (those the user provides; its duration proposed), day/month/year hour:minute, duration,
 * message (at least 5 characters), close-ticket flag, a WABA template with its parameters
 * (when the connection's channel has templates), a complementary message, an attachment and
 * reminders. The server checks every rule again (availability, conflicts…) and answers its
 * code, shown as the shell's error notice. An appointment still ahead can be deleted here.
 */
import { useEffect, useMemo, useState } from "react";
import { Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Upload, type ButtonProps } from "antd";
import { DeleteOutlined, PaperClipOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { formatDateTime, maskDateTime, parseDateTime } from "./datetime";
import Reminders from "./Reminders";
import type { Appointment, Attachment, Named, Options, Reminder, TemplateOption } from "./types";

export interface AppointmentFormProps {
  runtime: ShellRuntime;
  editing?: Appointment | null;
  /** A new appointment at this time (a click on the calendar). */
  initialStart?: number | null;
  initialUserId?: number | null;
  onSaved(a: Appointment): void;
  onDeleted(id: number): void;
  onClose(): void;
}

interface State {
  contactId: number | null;
  connectionId: number | null;
  userId: number | null;
  serviceId: number | null;
  date: string;
  duration: number | null;
  message: string;
  closeTicket: boolean;
  template: string | null;
  params: string[];
  complementaryMessage: string;
  attachment: Attachment | null;
  reminders: Reminder[];
}

const MIN_MESSAGE = 5;

function initial(p: AppointmentFormProps): State {
  const e = p.editing;
  if (e) {
    return {
      contactId: e.contactId,
      connectionId: e.connectionId,
      userId: e.userId,
      serviceId: e.serviceId,
      date: formatDateTime(e.startAt),
      duration: e.duration,
      message: e.message,
      closeTicket: e.closeTicket,
      template: e.template ? `${e.template.name}|${e.template.language}` : null,
      params: e.template?.params ?? [],
      complementaryMessage: e.complementaryMessage ?? "",
      attachment: e.attachment,
      reminders: e.reminders,
    };
  }
  return {
    contactId: null,
    connectionId: null,
    userId: p.initialUserId ?? p.runtime.user.id,
    serviceId: null,
    date: p.initialStart ? formatDateTime(p.initialStart) : "",
    duration: null,
    message: "",
    closeTicket: false,
    template: null,
    params: [],
    complementaryMessage: "",
    attachment: null,
    reminders: [],
  };
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

export default function AppointmentForm(props: AppointmentFormProps) {
  const { runtime, editing } = props;
  const t = runtime.t;
  const [s, setS] = useState<State>(() => initial(props));
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [options, setOptions] = useState<Options>({ contacts: [], users: [], services: [] });
  const [connections, setConnections] = useState<Named[]>([]);
  const [templates, setTemplates] = useState<TemplateOption[]>([]);
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
        .get<Options>("/appointments/options", { query: { q: search || undefined }, silent: true })
        .then(setOptions)
        .catch(() => undefined);
    }, 250);
    return () => clearTimeout(h);
  }, [runtime, search]);
  // Templates only where the connection's channel has them (a silent refusal elsewhere: none offered).
  useEffect(() => {
    setTemplates([]);
    if (!s.connectionId) return;
    runtime.api
      .get<TemplateOption[]>("/appointments/templates", { query: { connectionId: s.connectionId }, silent: true })
      .then((rows) => setTemplates(Array.isArray(rows) ? rows : []))
      .catch(() => undefined);
  }, [runtime, s.connectionId]);

  const contactOptions = useMemo(() => {
    const list = options.contacts.map((c) => ({ value: c.id, label: c.number ? `${c.name} (${c.number})` : c.name }));
    if (editing && !list.some((o) => o.value === editing.contactId)) list.unshift({ value: editing.contactId, label: editing.contactName ?? `#${editing.contactId}` });
    return list;
  }, [options.contacts, editing]);
  const services = options.services.filter((x) => !s.userId || x.users.includes(s.userId) || x.id === s.serviceId);
  const chosenTemplate = templates.find((x) => `${x.name}|${x.language}` === s.template) ?? null;

  const when = parseDateTime(s.date);
  const dateBad = touched && when === null;
  const messageShort = touched && s.message.trim().length < MIN_MESSAGE;
  const missing = (v: unknown) => touched && (v === null || v === undefined);

  const upload = async (file: File) => {
    try {
      const stored = await runtime.api.post<Attachment & { url: string }>("/appointments/attachment", { file: { fileName: file.name, mimeType: file.type || "application/octet-stream", data: await readBase64(file) } });
      set({ attachment: { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName } });
    } catch (err) {
      runtime.notify.error(err);
    }
    return false;
  };

  const save = async () => {
    setTouched(true);
    if (when === null || s.message.trim().length < MIN_MESSAGE || !s.contactId || !s.connectionId || !s.userId || !s.serviceId) return;
    setSaving(true);
    const body = {
      contactId: s.contactId,
      connectionId: s.connectionId,
      userId: s.userId,
      serviceId: s.serviceId,
      startAt: new Date(when).toISOString(),
      duration: s.duration ?? null,
      message: s.message,
      closeTicket: s.closeTicket,
      template: chosenTemplate ? { name: chosenTemplate.name, language: chosenTemplate.language, params: s.params.slice(0, chosenTemplate.variables) } : null,
      complementaryMessage: s.complementaryMessage || null,
      attachment: s.attachment,
      reminders: s.reminders,
    };
    try {
      const saved = editing ? await runtime.api.patch<Appointment>("/appointments", { id: editing.id, ...body }) : await runtime.api.post<Appointment>("/appointments", body);
      runtime.notify.success();
      props.onSaved(saved);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!editing) return;
    try {
      await runtime.api.post("/appointments/delete", { id: editing.id });
      runtime.notify.success();
      props.onDeleted(editing.id);
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const ahead = editing ? editing.status === "scheduled" && Date.parse(editing.startAt) > Date.now() : true;
  const required = (bad: boolean) => (bad ? { validateStatus: "error" as const, help: t("required") } : {});

  return (
    <Modal
      open
      width={640}
      title={editing ? t("edit") : t("new")}
      okText={t("save")}
      cancelText={t("close")}
      onOk={() => void save()}
      onCancel={props.onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "appointment-save", disabled: !ahead } as ButtonProps}
      footer={(node) => (
        <Space style={{ width: "100%", justifyContent: "space-between" }}>
          {editing && ahead ? (
            <Popconfirm title={t("deleteConfirm")} okText={t("yes")} cancelText={t("no")} onConfirm={() => void remove()} okButtonProps={{ "data-testid": "appointment-delete-confirm" } as ButtonProps}>
              <Button danger icon={<DeleteOutlined />} data-testid="appointment-delete">
                {t("delete")}
              </Button>
            </Popconfirm>
          ) : (
            <span />
          )}
          <Space>{node}</Space>
        </Space>
      )}
    >
      <Form layout="vertical" component="div" data-testid="appointment-form">
        <Form.Item label={t("contact")} required {...required(missing(s.contactId))}>
          <Select showSearch filterOption={false} onSearch={setSearch} placeholder={t("contactSearch")} value={s.contactId ?? undefined} onChange={(v: number) => set({ contactId: v })} options={contactOptions} data-testid="appointment-contact" />
        </Form.Item>
        <Space style={{ display: "flex" }} align="start">
          <Form.Item label={t("connection")} required style={{ minWidth: 200 }} {...required(missing(s.connectionId))}>
            <Select value={s.connectionId ?? undefined} onChange={(v: number) => set({ connectionId: v, template: null, params: [] })} options={connections.map((c) => ({ value: c.id, label: c.name }))} data-testid="appointment-connection" />
          </Form.Item>
          <Form.Item label={t("user")} required style={{ minWidth: 200 }} {...required(missing(s.userId))}>
            <Select showSearch optionFilterProp="label" value={s.userId ?? undefined} onChange={(v: number) => set({ userId: v })} options={options.users.map((u) => ({ value: u.id, label: u.name }))} data-testid="appointment-user" />
          </Form.Item>
        </Space>
        <Space style={{ display: "flex" }} align="start">
          <Form.Item label={t("service")} required style={{ minWidth: 200 }} {...required(missing(s.serviceId))}>
            <Select
              value={s.serviceId ?? undefined}
              onChange={(v: number) => set({ serviceId: v, duration: options.services.find((x) => x.id === v)?.duration ?? s.duration })}
              options={services.map((x) => ({ value: x.id, label: `${x.name} (${x.duration} min)` }))}
              data-testid="appointment-service"
            />
          </Form.Item>
          <Form.Item label={t("date")} required validateStatus={dateBad ? "error" : undefined} help={dateBad ? t("dateInvalid") : undefined}>
            <Input inputMode="numeric" placeholder={t("datePlaceholder")} value={s.date} onChange={(e) => set({ date: maskDateTime(e.target.value) })} data-testid="appointment-date" />
          </Form.Item>
          <Form.Item label={t("duration")}>
            <InputNumber min={1} max={1440} value={s.duration} onChange={(v) => set({ duration: v })} data-testid="appointment-duration" />
          </Form.Item>
        </Space>
        <Form.Item label={t("message")} required validateStatus={messageShort ? "error" : undefined} help={messageShort ? t("messageShort", { min: MIN_MESSAGE }) : undefined}>
          <Input.TextArea rows={3} maxLength={4000} showCount placeholder={t("messagePlaceholder")} value={s.message} onChange={(e) => set({ message: e.target.value })} data-testid="appointment-message" />
        </Form.Item>
        <Form.Item>
          <Checkbox checked={s.closeTicket} onChange={(e) => set({ closeTicket: e.target.checked })} data-testid="appointment-close-ticket">
            {t("closeTicket")}
          </Checkbox>
        </Form.Item>
        {templates.length ? (
          <Form.Item label={t("template")}>
            <Select
              allowClear
              placeholder={t("templateNone")}
              value={s.template ?? undefined}
              onChange={(v?: string) => set({ template: v ?? null, params: [] })}
              options={templates.map((x) => ({ value: `${x.name}|${x.language}`, label: `${x.name} (${x.language})` }))}
              data-testid="appointment-template"
            />
            {chosenTemplate
              ? Array.from({ length: chosenTemplate.variables }, (_, i) => (
                  <Input
                    key={i}
                    style={{ marginTop: 6 }}
                    placeholder={t("templateParam", { n: i + 1 })}
                    value={s.params[i] ?? ""}
                    onChange={(e) => set({ params: Object.assign([...s.params], { [i]: e.target.value }) })}
                    data-testid={`appointment-template-param-${i + 1}`}
                  />
                ))
              : null}
          </Form.Item>
        ) : null}
        <Form.Item label={t("complementary")}>
          <Input.TextArea rows={2} maxLength={4000} value={s.complementaryMessage} onChange={(e) => set({ complementaryMessage: e.target.value })} data-testid="appointment-complementary" />
        </Form.Item>
        <Form.Item label={t("attachment")}>
          {s.attachment ? (
            <Space>
              <PaperClipOutlined />
              <span data-testid="appointment-attachment-name">{s.attachment.fileName}</span>
              <Button size="small" onClick={() => set({ attachment: null })}>
                {t("removeAttachment")}
              </Button>
            </Space>
          ) : (
            <Upload showUploadList={false} beforeUpload={(f) => upload(f as File)}>
              <Button icon={<PaperClipOutlined />} data-testid="appointment-attach">
                {t("attach")}
              </Button>
            </Upload>
          )}
        </Form.Item>
        <Form.Item label={t("reminders")}>
          <Reminders runtime={runtime} value={s.reminders} onChange={(reminders) => set({ reminders })} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
