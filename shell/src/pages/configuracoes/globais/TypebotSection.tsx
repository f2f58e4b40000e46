import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Form, Input, Space, Tag, type FormRule } from "antd";
import { ExportOutlined, SaveOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { applyFieldErrors } from "../../../ui/api-errors";
import { SettingRow, SettingsGroup } from "../SettingsGroup";

/** The platform's Typebot as GET /settings/global answers it (the token masked). */
export interface TypebotSettings {
  builderUrl?: string;
  viewerUrl?: string;
  apiToken?: string;
}
/** What the core answers for a stored secret; sent back as is, it keeps the stored one. */
const MASK = "********";
const FIELDS = ["builderUrl", "viewerUrl", "apiToken"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** An http(s) address: the core's `url` rule (a lower-case http:// or https:// and no blank) and a host the browser can parse. */
function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\/\S+$/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

/**
 * Global settings › Typebot (spec §2, §3 Global settings): the builder and viewer addresses
 * every tenant's Typebot settings default to (the chatbot-typebot plugin reads them), and the
 * platform's API token. The core answers the token masked: the field shows the mask, which sent
 * back unchanged keeps the stored token; a new value replaces it; an empty field removes it.
 * The addresses are checked here (http or https) before the core checks them again.
 */
export function TypebotSection({ stored, onSaved }: { stored: TypebotSettings | undefined; onSaved: (v: TypebotSettings) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const hasToken = !!stored?.apiToken;
  const builder = stored?.builderUrl;

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({ builderUrl: stored?.builderUrl ?? "", viewerUrl: stored?.viewerUrl ?? "", apiToken: stored?.apiToken ? MASK : "" });
    setDirty(false);
  }, [stored, form]);

  const urlRule: FormRule = {
    validator: (_r, v: string | undefined) => (!v?.trim() || isHttpUrl(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t("configuracoes.rules.url")))),
  };

  const save = async (v: Values) => {
    const value: TypebotSettings = {};
    if (v.builderUrl?.trim()) value.builderUrl = v.builderUrl.trim();
    if (v.viewerUrl?.trim()) value.viewerUrl = v.viewerUrl.trim();
    // The mask keeps the stored token (the core swaps it back); anything else is the new one.
    const token = v.apiToken === MASK ? MASK : v.apiToken?.trim();
    if (token) value.apiToken = token;
    setSaving(true);
    try {
      const r = await root.api.put<{ value: TypebotSettings }>("/settings/global/typebot", { value }, { silent: true, successNotice: t("globais.typebot.saved") });
      onSaved(r.value);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, FIELDS)) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsGroup
      id="typebot"
      title={
        <Space size={8} wrap>
          {t("globais.typebot.title")}
          <Tag color={stored?.viewerUrl ? "green" : "default"} data-testid="typebot-global-status">
            {stored?.viewerUrl ? t("globais.typebot.configured") : t("globais.typebot.notConfigured")}
          </Tag>
        </Space>
      }
      description={t("globais.typebot.description")}
    >
      <Form form={form} layout="vertical" requiredMark={false} onValuesChange={() => setDirty(true)} onFinish={(v) => void save(v)} data-testid="typebot-global-form">
        <SettingRow id="typebot-builder-url" label={t("globais.typebot.builderUrl")} hint={t("globais.typebot.builderUrlHint")}>
          <Form.Item name="builderUrl" rules={[urlRule]} style={{ margin: 0 }}>
            <Input inputMode="url" maxLength={500} spellCheck={false} aria-labelledby="setting-typebot-builder-url-label" placeholder="https://builder.typebot.io" data-testid="typebot-global-builder-url" />
          </Form.Item>
        </SettingRow>
        <SettingRow id="typebot-viewer-url" label={t("globais.typebot.viewerUrl")} hint={t("globais.typebot.viewerUrlHint")}>
          <Form.Item name="viewerUrl" rules={[urlRule]} style={{ margin: 0 }}>
            <Input inputMode="url" maxLength={500} spellCheck={false} aria-labelledby="setting-typebot-viewer-url-label" placeholder="https://typebot.io" data-testid="typebot-global-viewer-url" />
          </Form.Item>
        </SettingRow>
        <SettingRow id="typebot-token" label={t("globais.typebot.apiToken")} hint={hasToken ? t("globais.typebot.apiTokenKeep") : t("globais.typebot.apiTokenHint")}>
          <Form.Item name="apiToken" style={{ margin: 0 }}>
            <Input.Password
              autoComplete="new-password"
              spellCheck={false}
              visibilityToggle={false}
              aria-labelledby="setting-typebot-token-label"
              placeholder={t("globais.typebot.apiTokenPlaceholder")}
              maxLength={500}
              data-testid="typebot-global-token"
              onFocus={(e) => e.currentTarget.value === MASK && e.currentTarget.select()}
            />
          </Form.Item>
        </SettingRow>
        <div className="oa-settings-actions">
          {builder ? (
            <Button icon={<ExportOutlined />} href={builder} target="_blank" rel="noopener noreferrer" data-testid="typebot-global-open-builder">
              {t("globais.typebot.openBuilder")}
            </Button>
          ) : null}
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} disabled={!dirty} data-testid="typebot-global-save">
            {t("common.save")}
          </Button>
        </div>
      </Form>
    </SettingsGroup>
  );
}
