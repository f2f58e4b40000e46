import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Input, Modal, Segmented, Select, Tag } from "antd";
import { useRoot } from "../../app/context";
import { applyFieldErrors } from "../../ui/api-errors";
import { SCOPE_COLOR, SCOPE_ICON } from "./scope";
import { KEY_RE, type QueueOption, type QuickMessageView, type Scope } from "./types";

interface QuickForm {
  key: string;
  message: string;
  scope: Scope;
  queueIds: number[];
}

/**
 * Create or edit a quick message. Only admins choose the scope (spec §6: global and
 * queue-scoped ones are theirs) and, for a queue one, its queues; anyone else's is personal.
 */
export function QuickMessageModal({
  message,
  initialScope,
  queues,
  admin,
  onClose,
  onSaved,
}: {
  message: QuickMessageView | null;
  /** A new message's scope (the tab the admin is on). */
  initialScope: Scope;
  queues: QueueOption[];
  admin: boolean;
  onClose: () => void;
  onSaved: (m: QuickMessageView) => void;
}) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<QuickForm>();
  const [saving, setSaving] = useState(false);
  const start: Scope = message?.scope ?? (admin ? initialScope : "personal");
  const scope: Scope = Form.useWatch("scope", form) ?? start;

  const submit = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const chosen: Scope = admin ? v.scope : "personal";
      const body = { key: v.key.trim().replace(/^\/+/, ""), message: v.message, scope: chosen, ...(chosen === "queue" ? { queueIds: v.queueIds } : {}) };
      const saved = message
        ? await root.api.put<QuickMessageView>(`/quick-messages/${message.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<QuickMessageView>("/quick-messages", body, { silent: true, successNotice: true });
      onSaved(saved);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, ["key", "message", "scope", "queueIds"])) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={620}
      title={message ? t("mensagensRapidas.edit") : t("mensagensRapidas.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ key: message?.key ?? "", message: message?.message ?? "", scope: start, queueIds: message?.queueIds ?? [] }}
      >
        {admin ? (
          <Form.Item name="scope" label={t("mensagensRapidas.scope")} extra={t(`mensagensRapidas.scopeHints.${scope}`)}>
            <Segmented
              block
              data-testid="quick-scope"
              options={(["personal", "global", "queue"] as const).map((s) => ({ value: s, label: t(`mensagensRapidas.scopes.${s}`), icon: SCOPE_ICON[s] }))}
            />
          </Form.Item>
        ) : (
          <Form.Item label={t("mensagensRapidas.scope")} extra={t("mensagensRapidas.personalOnly")}>
            <Tag color={SCOPE_COLOR.personal} icon={SCOPE_ICON.personal} data-testid="quick-personal-only">
              {t("mensagensRapidas.scopes.personal")}
            </Tag>
          </Form.Item>
        )}
        {admin && scope === "queue" ? (
          <Form.Item
            name="queueIds"
            label={t("mensagensRapidas.queues")}
            rules={[{ required: true, type: "array", min: 1, message: t("mensagensRapidas.queuesRequired") }]}
          >
            <Select
              mode="multiple"
              optionFilterProp="label"
              data-testid="quick-queues"
              placeholder={t("mensagensRapidas.queuesPlaceholder")}
              options={queues.map((q) => ({ value: q.id, label: q.name }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item
          name="key"
          label={t("mensagensRapidas.key")}
          extra={t("mensagensRapidas.keyHint")}
          /* The field shows its own "/": one typed is dropped. */
          normalize={(v: string) => v.replace(/^\/+/, "")}
          rules={[
            { required: true, whitespace: true, message: t("common.required") },
            { pattern: KEY_RE, message: t("mensagensRapidas.keyRule") },
          ]}
        >
          <Input prefix={<span className="oa-code">/</span>} maxLength={101} placeholder={t("mensagensRapidas.keyPlaceholder")} data-testid="quick-key" autoFocus />
        </Form.Item>
        <Form.Item name="message" label={t("mensagensRapidas.message")} rules={[{ required: true, whitespace: true, message: t("common.required") }]}>
          <Input.TextArea rows={6} maxLength={10000} showCount placeholder={t("mensagensRapidas.messagePlaceholder")} data-testid="quick-message" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
