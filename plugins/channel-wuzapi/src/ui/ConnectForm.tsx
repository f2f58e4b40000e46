import { useState } from "react";
import { Alert, Button, Collapse, Form, Input, Radio, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { MASKED, newHmacKey, TOKEN_PATTERN, URL_PATTERN } from "./validate";
import SessionPanel from "./SessionPanel";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

/** The wuzapi part of the connection form: server, session token, HMAC key, webhook format; pairing code and reset once saved. */
export default function WuzapiConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const format = value.webhookFormat === "form" ? "form" : "json";
  const canTest = URL_PATTERN.test(str("apiUrl")) && TOKEN_PATTERN.test(str("sessionToken")) && !masked("sessionToken") && !masked("hmacKey") && str("hmacKey").length >= 32;

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-wuzapi", settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  const webhookUrl = connection?.token ? `${window.location.origin}/api/wuzapi/${connection.token}/webhook` : null;
  const secret = (k: string, hint: string) => (masked(k) ? t("secretKept") : hint);

  return (
    <div data-testid="wuzapi-connect-form">
      <Form layout="vertical" component="div">
        <Form.Item label={t("apiUrl")} required extra={t("apiUrlHint")} {...field("apiUrl")}>
          <Input name="apiUrl" placeholder="https://wuzapi.example.com" value={str("apiUrl")} onChange={(e) => set("apiUrl", e.target.value.trim())} data-testid="wuzapi-api-url" />
        </Form.Item>
        <Form.Item label={t("sessionToken")} required extra={secret("sessionToken", t("sessionTokenHint"))} {...field("sessionToken")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="sessionToken" autoComplete="off" value={str("sessionToken")} onChange={(e) => set("sessionToken", e.target.value.trim())} data-testid="wuzapi-session-token" />
            <Button onClick={test} loading={testing} disabled={!canTest} data-testid="wuzapi-test">
              {t("test")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {tested ? (
          <Alert style={{ marginBottom: 16 }} showIcon type={tested.ok ? "success" : "error"} title={tested.ok ? t("testOk") : t("testFailed")} description={tested.detail} data-testid="wuzapi-test-result" />
        ) : !canTest && (masked("sessionToken") || masked("hmacKey")) ? (
          <Typography.Paragraph type="secondary">{t("testNeedsSecrets")}</Typography.Paragraph>
        ) : null}
        <Form.Item label={t("hmacKey")} required extra={secret("hmacKey", t("hmacKeyHint"))} {...field("hmacKey")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="hmacKey" autoComplete="off" value={str("hmacKey")} onChange={(e) => set("hmacKey", e.target.value)} data-testid="wuzapi-hmac-key" />
            <Button onClick={() => set("hmacKey", newHmacKey())} data-testid="wuzapi-hmac-generate">
              {t("generate")}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item label={t("webhookFormat")} required {...field("webhookFormat")}>
          <Radio.Group value={format} onChange={(e) => set("webhookFormat", e.target.value)} data-testid="wuzapi-format">
            <Space orientation="vertical">
              <Radio value="json">
                <strong>{t("formatJson")}</strong>
                <Typography.Text type="secondary" style={{ display: "block" }}>
                  {t("formatJsonHint")}
                </Typography.Text>
              </Radio>
              <Radio value="form">
                <strong>{t("formatForm")}</strong>
                <Typography.Text type="secondary" style={{ display: "block" }}>
                  {t("formatFormHint")}
                </Typography.Text>
              </Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        <div style={{ marginBottom: 16 }} data-testid="wuzapi-webhook-info">
          {webhookUrl ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="wuzapi-webhook-url">
              {t("webhookAt")}
              <br />
              <Typography.Text code copyable={{ text: webhookUrl, tooltips: [t("copy"), t("copied")] }} style={{ wordBreak: "break-all" }}>
                {webhookUrl}
              </Typography.Text>
            </Typography.Paragraph>
          ) : (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t("webhookAfterSave")}
            </Typography.Paragraph>
          )}
        </div>
        <Collapse
          ghost
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          defaultActiveKey={str("apiToken") || str("session") ? ["advanced"] : []}
          data-testid="wuzapi-advanced"
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <>
                  <Form.Item label={t("apiToken")} extra={secret("apiToken", t("apiTokenHint"))} {...field("apiToken")}>
                    <Input.Password name="apiToken" autoComplete="off" value={str("apiToken")} onChange={(e) => set("apiToken", e.target.value.trim())} data-testid="wuzapi-api-token" />
                  </Form.Item>
                  <Form.Item label={t("session")} extra={t("sessionHint")} {...field("session")}>
                    <Input name="session" value={str("session")} onChange={(e) => set("session", e.target.value.trim())} data-testid="wuzapi-session" />
                  </Form.Item>
                </>
              ),
            },
          ]}
        />
      </Form>
      <SessionPanel connection={connection} runtime={runtime} />
    </div>
  );
}
