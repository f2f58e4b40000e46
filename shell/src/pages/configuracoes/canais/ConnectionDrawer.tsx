import { Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useFormSections } from "../../../plugins/form-sections";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Button, Card, Divider, Drawer, Empty, Form, Input, Select, Skeleton, Space, Switch, Typography } from "antd";
import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../../../app/context";
import type { RootStore } from "../../../app/root";
import { runtimeFor } from "../../../plugins/remotes";
import { applyFieldErrors, fieldErrorsOf } from "../../../ui/api-errors";
import { ChannelIcon } from "../../../ui/ChannelIcon";
import type { QueueView } from "../FilasPage";
import { pluginLabel, type ConnectionView } from "./types";

interface CommonForm {
  name: string;
  queueId?: number | null;
  greeting?: string;
  farewell?: string;
  isDefault: boolean;
}
const COMMON_FIELDS = ["name", "queueId", "greeting", "farewell", "isDefault"] as const;
/** The hints name the placeholders the core fills (core/src/automation/decide.ts fillText): shown as written, not interpolated. */
const PLACEHOLDERS = { name: "{{name}}", protocol: "{{protocol}}", interpolation: { escapeValue: false } };

/** Create (type first) or edit a connection: the common fields, then the channel plugin's own form. */
export const ConnectionDrawer = observer(function ConnectionDrawer({
  connection,
  queues,
  onClose,
  onSaved,
}: {
  connection: ConnectionView | null;
  queues: QueueView[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<CommonForm>();
  const [type, setType] = useState<string | null>(connection?.type ?? null);
  const [full, setFull] = useState<ConnectionView | null>(null);
  const [settings, setSettings] = useState<ConnectionSettings>({});
  const [pluginErrors, setPluginErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const types = root.plugins.channelTypes;
  const plugin = type ? root.plugins.enabled.find((p) => p.id === type) : undefined;
  const def = type ? root.plugins.connectForms.get(type) : undefined;
  const runtime = useMemo(() => (plugin ? runtimeFor(root as RootStore, plugin) : null), [root, plugin]);
  const PluginForm = def?.component;

  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const editId = connection?.id;

  // Editing: the full record (settings, token) of the connection.
  useEffect(() => {
    if (!editId) return;
    root.api.get<ConnectionView>(`/connections/${editId}`).then(
      (c) => {
        setFull(c);
        setSettings({ ...(root.plugins.connectForms.get(c.type)?.defaults ?? {}), ...(c.settings ?? {}) });
      },
      () => closeRef.current(),
    );
  }, [root, editId]);

  const choose = (id: string) => {
    setType(id);
    setSettings({ ...(root.plugins.connectForms.get(id)?.defaults ?? {}) });
    setPluginErrors({});
  };

  const sections = useFormSections("connectionForm", connection?.id, type ?? undefined);

  const save = async () => {
    if (!type) return;
    const common = await form.validateFields().catch(() => null);
    const errs = def?.validate && runtime ? def.validate(settings, runtime.t) : {};
    setPluginErrors(errs);
    if (!common || Object.keys(errs).length) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = {
        name: common.name.trim(),
        queueId: common.queueId ?? null,
        greeting: common.greeting?.trim() ? common.greeting : null,
        farewell: common.farewell?.trim() ? common.farewell : null,
        // Left out when off on creation: the tenant's first connection becomes the default.
        ...(common.isDefault || connection ? { isDefault: !!common.isDefault } : {}),
      };
      // The settings are the plugin's: sent only when its form is here to edit them.
      if (def || !connection) body.settings = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
      const saved = connection
        ? await root.api.put<{ id: number }>(`/connections/${connection.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<{ id: number }>("/connections", { ...body, type }, { silent: true, successNotice: true });
      // The plugins' own sections of the form, saved by each plugin once the connection exists.
      await sections.saveAll(saved?.id ?? connection!.id);
      onSaved();
    } catch (e) {
      // The server's field errors go under their fields: the plugin's settings in its form.
      const fromPlugin = fieldErrorsOf(e, t, "settings.");
      const inPluginForm = !!PluginForm && Object.keys(fromPlugin).length > 0;
      if (inPluginForm) setPluginErrors(fromPlugin);
      const onCommon = applyFieldErrors(form, e, t, COMMON_FIELDS);
      if (!onCommon && !inPluginForm) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  const editingLoaded = !connection || full;

  return (
    <Drawer
      open
      size={720}
      title={connection ? t("configuracoes.channels.edit", { name: connection.name }) : t("configuracoes.channels.new")}
      onClose={onClose}
      destroyOnHidden
      extra={
        type ? (
          <Space>
            <Button onClick={onClose}>{t("common.cancel")}</Button>
            <Button type="primary" loading={saving} onClick={save} disabled={!editingLoaded} data-testid="channel-save">
              {t("common.save")}
            </Button>
          </Space>
        ) : null
      }
    >
      {!type ? (
        <div data-testid="channel-type-chooser">
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t("configuracoes.channels.chooseType")}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t("configuracoes.channels.chooseTypeHint")}</Typography.Paragraph>
          {!root.plugins.loaded ? (
            <Skeleton active />
          ) : types.length ? (
            <div className="oa-type-grid">
              {types.map((p) => (
                <Card key={p.id} hoverable className="oa-type-card" onClick={() => choose(p.id)} data-testid={`channel-type-${p.id}`} role="button" tabIndex={0} onKeyDown={(e) => e.key === "Enter" && choose(p.id)}>
                  <ChannelIcon looks={p} style={{ display: "grid", marginBottom: 8 }} />
                  <strong>{pluginLabel(p, i18n.language, p.id)}</strong>
                </Card>
              ))}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("configuracoes.channels.noTypes")} data-testid="channel-no-types" />
          )}
        </div>
      ) : !editingLoaded ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <div className="oa-cell-main" style={{ marginBottom: 20 }}>
            <ChannelIcon looks={plugin} variant="badge" />
            <span className="oa-cell-text">
              <strong>{pluginLabel(plugin, i18n.language, type)}</strong>
              <span className="oa-muted">{t("configuracoes.channels.typeLabel")}</span>
            </span>
            {!connection && types.length > 1 ? (
              <Button size="small" onClick={() => setType(null)} style={{ marginInlineStart: "auto" }}>
                {t("configuracoes.channels.changeType")}
              </Button>
            ) : null}
          </div>
          <Form form={form} layout="vertical" initialValues={
              full
                ? { name: full.name, queueId: full.queueId ?? undefined, greeting: full.greeting ?? "", farewell: full.farewell ?? "", isDefault: full.isDefault }
                : { name: "", isDefault: false, greeting: "", farewell: "" }
            } data-testid="channel-form">
            <div className="oa-form-grid">
              <Form.Item name="name" label={t("configuracoes.channels.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { max: 100, message: t("configuracoes.rules.stringMax", { expected: 100 }) }]}>
                <Input maxLength={100} placeholder={t("configuracoes.channels.namePlaceholder")} data-testid="channel-name" />
              </Form.Item>
              <Form.Item name="queueId" label={t("configuracoes.channels.queue")} extra={t("configuracoes.channels.queueHint")}>
                <Select allowClear placeholder={t("configuracoes.channels.noQueue")} options={queues.map((q) => ({ value: q.id, label: q.name, disabled: !q.active }))} />
              </Form.Item>
            </div>
            <Form.Item name="greeting" label={t("configuracoes.channels.greeting")} extra={t("configuracoes.channels.greetingHint", PLACEHOLDERS)}>
              <Input.TextArea rows={2} maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
            <Form.Item name="farewell" label={t("configuracoes.channels.farewell")} extra={t("configuracoes.channels.farewellHint", PLACEHOLDERS)}>
              <Input.TextArea rows={2} maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
            <Form.Item name="isDefault" label={t("configuracoes.channels.default")} valuePropName="checked" extra={t("configuracoes.channels.defaultHint")}>
              <Switch />
            </Form.Item>
          </Form>
          <Divider titlePlacement="start">{t("configuracoes.channels.typeSettings", { type: pluginLabel(plugin, i18n.language, type) })}</Divider>
          <div className="oa-plugin-form" data-testid="channel-plugin-form">
            {PluginForm && runtime ? (
              <Suspense fallback={<Skeleton active />}>
                <PluginForm
                  value={settings}
                  onChange={(next) => {
                    setSettings(next);
                    if (Object.keys(pluginErrors).length && def?.validate) setPluginErrors(def.validate(next, runtime.t));
                  }}
                  errors={pluginErrors}
                  connection={full ? { id: full.id, name: full.name, status: full.status, token: full.token ?? null } : undefined}
                  runtime={runtime}
                />
              </Suspense>
            ) : !plugin ? (
              <Alert type="warning" showIcon title={t("configuracoes.channels.pluginOff")} description={t("configuracoes.channels.pluginOffEdit")} />
            ) : root.plugins.state.get(type) && root.plugins.state.get(type) !== "ready" ? (
              <Alert type="error" showIcon title={t("configuracoes.channels.formFailed")} />
            ) : (
              <Typography.Text type="secondary">{t("configuracoes.channels.noExtraSettings")}</Typography.Text>
            )}
          </div>
          {sections.parts}
        </>
      )}
    </Drawer>
  );
});
