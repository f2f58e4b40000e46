import { Button, Collapse, Form, Input, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import { CredentialsNotice, TestResult, useConnectionTest, useNeedsCredentials, WebhookInfo } from "@openatende/whatsapp-cloud/src/ui/connect-parts";
import { MASKED, validate360, webhookUrlOf } from "./validate";

const CREDENTIALS = "ERR_D360_CREDENTIALS_REQUIRED";

/** The 360dialog part of the connection form: the number's API key and the number, the webhook registered on connect, a test of the key. */
export default function D360ConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
  const t = runtime.t;
  const { testing, tested, test, clear } = useConnectionTest(runtime, "channel-360");
  // A saved connection whose key 360dialog refused says so here, where the new key goes.
  const needsCredentials = useNeedsCredentials(runtime, connection?.id, CREDENTIALS);
  const str = (k: string) => (typeof value[k] === "string" ? (value[k] as string) : "");
  const set = (k: string, v: unknown) => {
    clear();
    onChange({ ...value, [k]: v === "" ? undefined : v });
  };
  const field = (k: string) => ({ validateStatus: errors[k] ? ("error" as const) : undefined, help: errors[k] });
  const masked = (k: string) => str(k) === MASKED;
  const hint = (k: string) => (masked(k) ? t("secretKept") : t(`${k}Hint`));
  const canTest = Object.keys(validate360(value, t)).length === 0 && !masked("apiKey") && !masked("webhookSecret");
  const webhookUrl = connection?.token ? webhookUrlOf(window.location.origin, connection.token) : null;

  return (
    <div data-testid="d360-connect-form">
      {needsCredentials ? <CredentialsNotice t={t} prefix="d360" /> : null}
      <Form layout="vertical" component="div">
        <Form.Item label={t("phoneNumber")} required extra={hint("phoneNumber")} {...field("phoneNumber")}>
          <Input name="phoneNumber" value={str("phoneNumber")} onChange={(e) => set("phoneNumber", e.target.value.trim())} data-testid="d360-phoneNumber" />
        </Form.Item>
        <Form.Item label={t("apiKey")} required extra={hint("apiKey")} {...field("apiKey")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="apiKey" autoComplete="off" value={str("apiKey")} onChange={(e) => set("apiKey", e.target.value.trim())} data-testid="d360-apiKey" />
            <Button onClick={() => void test(value)} loading={testing} disabled={!canTest} data-testid="d360-test">
              {t("test")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {tested ? (
          <TestResult tested={tested} t={t} prefix="d360" code={CREDENTIALS} />
        ) : !canTest && masked("apiKey") ? (
          <Typography.Paragraph type="secondary">{t("testNeedsSecrets")}</Typography.Paragraph>
        ) : null}
        <WebhookInfo url={webhookUrl} t={t} prefix="d360" />
        <Collapse
          ghost
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          defaultActiveKey={str("baseUrl") || str("webhookSecret") ? ["advanced"] : []}
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <>
                  <Form.Item label={t("webhookSecret")} extra={hint("webhookSecret")} {...field("webhookSecret")}>
                    <Input.Password name="webhookSecret" autoComplete="off" value={str("webhookSecret")} onChange={(e) => set("webhookSecret", e.target.value.trim())} data-testid="d360-webhookSecret" />
                  </Form.Item>
                  <Form.Item label={t("baseUrl")} extra={t("baseUrlHint")} {...field("baseUrl")}>
                    <Input name="baseUrl" placeholder="https://waba-v2.360dialog.io" value={str("baseUrl")} onChange={(e) => set("baseUrl", e.target.value.trim())} data-testid="d360-baseUrl" />
                  </Form.Item>
                </>
              ),
            },
          ]}
        />
      </Form>
    </div>
  );
}
