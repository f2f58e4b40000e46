import { useEffect, useState } from "react";
import { Alert, Button, Collapse, Divider, Form, Input, Radio, Select, Space, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";
import AccountPanel from "./AccountPanel";
import { MASKED, mobileOf, newWebhookSecret, TOKEN_PATTERN } from "./validate";

interface TestAnswer {
  ok: boolean;
  detail?: string;
}

/** The SMS part of the connection form: provider and token (tested), the SMS account's details, and, once saved, credits and callback addresses. */
export default function SmsConnectForm({ value, onChange, errors, connection, runtime }: ConnectFormProps) {
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
  const secretHint = (k: string, hint: string) => (masked(k) ? t("secretKept") : hint);

  // A new connection gets its webhook secret at once: the admin never has to invent one.
  useEffect(() => {
    if (!value.webhookSecret) onChange({ ...value, provider: value.provider ?? "comtele", webhookSecret: newWebhookSecret() });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const canTest = TOKEN_PATTERN.test(str("token")) && !masked("token");
  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type: "channel-sms", settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div data-testid="sms-connect-form">
      <Form layout="vertical" component="div">
        <Form.Item label={t("provider")} required {...field("provider")}>
          <Select value={str("provider") || "comtele"} onChange={(v) => set("provider", v)} options={[{ value: "comtele", label: "Comtele" }]} data-testid="sms-provider" />
        </Form.Item>
        <Form.Item label={t("token")} required extra={secretHint("token", t("tokenHint"))} {...field("token")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input.Password name="token" autoComplete="off" value={str("token")} onChange={(e) => set("token", e.target.value.trim())} data-testid="sms-token" />
            <Button onClick={test} loading={testing} disabled={!canTest} data-testid="sms-test">
              {t("test")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {tested ? (
          <Alert style={{ marginBottom: 16 }} showIcon type={tested.ok ? "success" : "error"} title={tested.ok ? t("testOk") : t("testFailed")} description={tested.detail} data-testid="sms-test-result" />
        ) : null}
        <Form.Item label={t("sender")} extra={t("senderHint")} {...field("sender")}>
          <Input name="sender" value={str("sender")} onChange={(e) => set("sender", e.target.value)} data-testid="sms-sender" />
        </Form.Item>

        <Divider titlePlacement="start">{t("accountTitle")}</Divider>
        <Typography.Paragraph type="secondary">{t("accountHint")}</Typography.Paragraph>
        <Space style={{ width: "100%" }} align="start" wrap>
          <Form.Item label={t("firstName")} required {...field("firstName")}>
            <Input name="firstName" value={str("firstName")} onChange={(e) => set("firstName", e.target.value)} data-testid="sms-first-name" />
          </Form.Item>
          <Form.Item label={t("lastName")} required {...field("lastName")}>
            <Input name="lastName" value={str("lastName")} onChange={(e) => set("lastName", e.target.value)} data-testid="sms-last-name" />
          </Form.Item>
        </Space>
        <Form.Item label={t("email")} required {...field("email")}>
          <Input name="email" type="email" value={str("email")} onChange={(e) => set("email", e.target.value.trim())} data-testid="sms-email" />
        </Form.Item>
        <Form.Item label={t("mobile")} required extra={t("mobileHint")} {...field("mobile")}>
          <Input name="mobile" inputMode="tel" placeholder="+55 11 98888-7777" value={str("mobile")} onChange={(e) => set("mobile", mobileOf(e.target.value))} data-testid="sms-mobile" />
        </Form.Item>
        <Form.Item label={t("password")} required extra={secretHint("password", t("passwordHint"))} {...field("password")}>
          <Input.Password name="password" autoComplete="new-password" value={str("password")} onChange={(e) => set("password", e.target.value)} data-testid="sms-password" />
        </Form.Item>
        <Form.Item label={t("taxpayerType")} required {...field("taxpayerType")}>
          <Radio.Group value={str("taxpayerType") || undefined} onChange={(e) => set("taxpayerType", e.target.value)} data-testid="sms-taxpayer-type">
            <Radio value="PF">{t("taxpayerPF")}</Radio>
            <Radio value="PJ">{t("taxpayerPJ")}</Radio>
          </Radio.Group>
        </Form.Item>

        <Collapse
          ghost
          styles={{ header: { paddingInline: 0 }, body: { paddingInline: 0, paddingBlockEnd: 0 } }}
          defaultActiveKey={str("apiUrl") || errors.webhookSecret || errors.apiUrl ? ["advanced"] : []}
          data-testid="sms-advanced"
          items={[
            {
              key: "advanced",
              label: t("advanced"),
              children: (
                <>
                  <Form.Item label={t("apiUrl")} extra={t("apiUrlHint")} {...field("apiUrl")}>
                    <Input name="apiUrl" placeholder="https://sms.comtele.com.br/api/v2" value={str("apiUrl")} onChange={(e) => set("apiUrl", e.target.value.trim())} data-testid="sms-api-url" />
                  </Form.Item>
                  <Form.Item label={t("webhookSecret")} required extra={secretHint("webhookSecret", t("webhookSecretHint"))} {...field("webhookSecret")}>
                    <Space.Compact style={{ width: "100%" }}>
                      <Input.Password name="webhookSecret" autoComplete="off" value={str("webhookSecret")} onChange={(e) => set("webhookSecret", e.target.value.trim())} data-testid="sms-webhook-secret" />
                      <Button onClick={() => set("webhookSecret", newWebhookSecret())} data-testid="sms-secret-generate">
                        {t("generate")}
                      </Button>
                    </Space.Compact>
                  </Form.Item>
                </>
              ),
            },
          ]}
        />
      </Form>
      <AccountPanel connection={connection} runtime={runtime} />
    </div>
  );
}
