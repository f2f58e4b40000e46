import { useEffect, useState, type ReactNode } from "react";
import { Alert, Button, Collapse, Form, Input, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { MASKED, newVerifyToken, validateWaba, webhookUrlOf } from "./validate";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

const CREDENTIALS = "ERR_WABA_CREDENTIALS_REQUIRED";

/** The WABA part of the connection form: every field the spec names, the webhook URL to copy, a test of the credentials. */
export default function WabaConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const [needsCredentials, setNeedsCredentials] = useState(false);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    setTested(null);
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const hint = (k: string) => (masked(k) ? t("secretKept") : t(`${k}Hint`));
  const canTest = Object.keys(validateWaba(value, t)).length === 0 && !masked("accessToken") && !masked("appSecret") && !masked("verifyToken");

  // A saved connection whose token Meta refused says so here, where the new token goes.
  useEffect(() => {
    if (!connection?.id) return;
    let alive = true;
    runtime.api
      .get<{ statusDetail?: string | null }>(`/connections/${connection.id}`, { silent: true })
      .then((c) => alive && setNeedsCredentials(c.statusDetail === CREDENTIALS))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [connection?.id, runtime]);

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-waba", settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  const input = (k: string, secret = false, extra?: ReactNode) => (
    <Form.Item label={t(k)} required extra={hint(k)} {...field(k)}>
      <Space.Compact style={{ width: "100%" }}>
        {secret ? (
          <Input.Password name={k} autoComplete="off" value={str(k)} onChange={(e) => set(k, e.target.value.trim())} data-testid={`waba-${k}`} />
        ) : (
          <Input name={k} value={str(k)} onChange={(e) => set(k, e.target.value.trim())} data-testid={`waba-${k}`} />
        )}
        {extra}
      </Space.Compact>
    </Form.Item>
  );
  const webhookUrl = connection?.token ? webhookUrlOf(window.location.origin, connection.token) : null;

  return (
    <div data-testid="waba-connect-form">
      {needsCredentials ? <Alert style={{ marginBottom: 16 }} showIcon type="warning" title={t("credentialsNeeded")} description={t("credentialsNeededHint")} data-testid="waba-credentials-needed" /> : null}
      <Form layout="vertical" component="div">
        {input("phoneNumberId")}
        {input("businessAccountId")}
        {input("appId")}
        {input(
          "accessToken",
          true,
          <Button onClick={test} loading={testing} disabled={!canTest} data-testid="waba-test">
            {t("test")}
          </Button>,
        )}
        {tested ? (
          <Alert
            style={{ marginBottom: 16 }}
            showIcon
            type={tested.ok ? "success" : "error"}
            title={tested.ok ? t("testOk") : t("testFailed")}
            description={tested.detail === CREDENTIALS ? t("credentialsNeededHint") : tested.detail}
            data-testid="waba-test-result"
          />
        ) : !canTest && (masked("accessToken") || masked("appSecret")) ? (
          <Typography.Paragraph type="secondary">{t("testNeedsSecrets")}</Typography.Paragraph>
        ) : null}
        {input("appSecret", true)}
        {input(
          "verifyToken",
          true,
          <Button onClick={() => set("verifyToken", newVerifyToken())} data-testid="waba-verify-generate">
            {t("generate")}
          </Button>,
        )}
        {input("apiVersion")}
        <div style={{ marginBottom: 16 }} data-testid="waba-webhook-info">
          {webhookUrl ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="waba-webhook-url">
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
          defaultActiveKey={str("graphUrl") ? ["advanced"] : []}
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <Form.Item label={t("graphUrl")} extra={t("graphUrlHint")} {...field("graphUrl")}>
                  <Input name="graphUrl" placeholder="https://graph.facebook.com" value={str("graphUrl")} onChange={(e) => set("graphUrl", e.target.value.trim())} data-testid="waba-graphUrl" />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form>
    </div>
  );
}
