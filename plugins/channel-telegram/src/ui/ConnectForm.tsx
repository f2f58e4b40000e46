import { useState } from "react";
import { Alert, Button, Collapse, Form, Input, Radio, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { MASKED, tokenUsable } from "./validate";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

/** The Telegram part of the connection form: the bot's token, how updates arrive, and a token test. */
export default function TelegramConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({
    validateStatus: errors[k] ? ("error" as const) : undefined,
    help: errors[k],
  });
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const token = str("token");
  const masked = token === MASKED;
  const mode = value.mode === "webhook" ? "webhook" : "polling";

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-telegram", settings: { ...settings, token: token.trim() } }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  const origin = window.location.origin;
  const webhookUrl = connection?.token ? `${origin}/api/telegram/${connection.token}/webhook` : null;
  // Telegram's own servers deliver webhooks to HTTPS addresses only (a Bot API server of one's own may not ask it).
  const needsHttps = mode === "webhook" && !str("apiRoot") && !origin.startsWith("https://");

  return (
    <div data-testid="telegram-connect-form">
      <Form layout="vertical" component="div">
        <Form.Item label={t("token")} required extra={masked ? t("tokenKept") : t("tokenHint")} {...field("token")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password
              name="token"
              autoComplete="off"
              placeholder="123456789:AAE…"
              value={token}
              onChange={(e) => set("token", e.target.value.trim())}
              data-testid="telegram-token"
            />
            <Button onClick={test} loading={testing} disabled={masked || !tokenUsable(token)} data-testid="telegram-test">
              {t("test")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {tested ? (
          <Alert
            style={{ marginBottom: 16 }}
            showIcon
            type={tested.ok ? "success" : "error"}
            title={tested.ok ? t("testOk", { bot: tested.detail ?? "" }) : t("testFailed")}
            description={tested.ok ? undefined : tested.detail}
            data-testid="telegram-test-result"
          />
        ) : null}
        <Form.Item label={t("mode")} required {...field("mode")}>
          <Radio.Group value={mode} onChange={(e) => set("mode", e.target.value)} data-testid="telegram-mode">
            <Space orientation="vertical">
              <Radio value="polling">
                <strong>{t("polling")}</strong>
                <Typography.Text type="secondary" style={{ display: "block" }}>
                  {t("pollingHint")}
                </Typography.Text>
              </Radio>
              <Radio value="webhook">
                <strong>{t("webhook")}</strong>
                <Typography.Text type="secondary" style={{ display: "block" }}>
                  {t("webhookHint")}
                </Typography.Text>
              </Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        {mode === "webhook" ? (
          <div style={{ marginBottom: 16 }} data-testid="telegram-webhook-info">
            {webhookUrl ? (
              <Typography.Paragraph type="secondary" style={{ marginBottom: needsHttps ? 8 : 0 }} data-testid="telegram-webhook-url">
                {t("webhookAt")}
                <br />
                <Typography.Text code copyable={{ text: webhookUrl, tooltips: [t("copy"), t("copied")] }} style={{ wordBreak: "break-all" }}>
                  {webhookUrl}
                </Typography.Text>
              </Typography.Paragraph>
            ) : (
              <Typography.Paragraph type="secondary" style={{ marginBottom: needsHttps ? 8 : 0 }} data-testid="telegram-webhook-after-save">
                {t("webhookAfterSave")}
              </Typography.Paragraph>
            )}
            {needsHttps ? <Alert type="warning" showIcon title={t("webhookNeedsHttps")} description={t("webhookNeedsHttpsDetail", { origin })} data-testid="telegram-webhook-https" /> : null}
          </div>
        ) : null}
        <Collapse
          ghost
          // Header and fields aligned with the fields above.
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          data-testid="telegram-advanced"
          defaultActiveKey={str("apiRoot") ? ["advanced"] : []}
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <Form.Item label={t("apiRoot")} extra={t("apiRootHint")} {...field("apiRoot")}>
                  <Input name="apiRoot" placeholder="https://api.telegram.org" value={str("apiRoot")} onChange={(e) => set("apiRoot", e.target.value.trim())} />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form>
    </div>
  );
}
