import type { ReactNode } from "react";
import { Button, Collapse, Form, Input, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { CredentialsNotice, TestResult, useConnectionTest, useNeedsCredentials, WebhookInfo } from "@openatende/whatsapp-cloud/src/ui/connect-parts";
import { MASKED, newVerifyToken, validateWaba, webhookUrlOf } from "./validate";

const CREDENTIALS = "ERR_WABA_CREDENTIALS_REQUIRED";

/** The WABA part of the connection form: every field the spec names, the webhook URL to copy, a test of the credentials. */
export default function WabaConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const { testing, tested, test: runTest, clear } = useConnectionTest(runtime, "channel-waba");
  // A saved connection whose token Meta refused says so here, where the new token goes.
  const needsCredentials = useNeedsCredentials(runtime, connection?.id, CREDENTIALS);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    clear();
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const hint = (k: string) => (masked(k) ? t("secretKept") : t(`${k}Hint`));
  const canTest = Object.keys(validateWaba(value, t)).length === 0 && !masked("accessToken") && !masked("appSecret") && !masked("verifyToken");

  const test = () => runTest(value);

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
      {needsCredentials ? <CredentialsNotice t={t} prefix="waba" /> : null}
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
          <TestResult tested={tested} t={t} prefix="waba" code={CREDENTIALS} />
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
        <WebhookInfo url={webhookUrl} t={t} prefix="waba" />
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
