/**
 * The parts of a Cloud API connect form every provider's form has (channel-waba's and
 * channel-360's): the "needs new credentials" notice of a saved connection the provider refused,
 * the credentials test and its answer, and the webhook URL to copy. Texts come from the form's
 * plugin (`t`); test ids start with the form's `prefix` ("waba", "d360").
 */
import { useEffect, useState } from "react";
import { Alert, Typography } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

type T = ShellRuntime["t"];

export interface TestAnswer {
  ok: boolean;
  detail?: string;
}

/** Whether the saved connection `connectionId` waits for new credentials (its status detail is `code`). */
export function useNeedsCredentials(runtime: ShellRuntime, connectionId: number | undefined, code: string): boolean {
  const [needs, setNeeds] = useState(false);
  useEffect(() => {
    if (!connectionId) return;
    let alive = true;
    runtime.api
      .get<{ statusDetail?: string | null }>(`/connections/${connectionId}`, { silent: true })
      .then((c) => alive && setNeeds(c.statusDetail === code))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [connectionId, runtime, code]);
  return needs;
}

/** The test button's state: POST /connections/test with the typed settings. */
export function useConnectionTest(runtime: ShellRuntime, type: string) {
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);
  const test = async (value: Record<string, unknown>) => {
    setTesting(true);
    setTested(null);
    try {
      const settings = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
      setTested(await runtime.api.post<TestAnswer>("/connections/test", { type, settings }, { silent: true }));
    } catch (err) {
      const e = err as { detail?: string; message?: string };
      setTested({ ok: false, detail: e.detail || e.message });
    } finally {
      setTesting(false);
    }
  };
  return { testing, tested, test, clear: () => setTested(null) };
}

export function CredentialsNotice({ t, prefix }: { t: T; prefix: string }) {
  return <Alert style={{ marginBottom: 16 }} showIcon type="warning" title={t("credentialsNeeded")} description={t("credentialsNeededHint")} data-testid={`${prefix}-credentials-needed`} />;
}

/** The test's answer; a refusal of the credentials (`code`) says what to do. */
export function TestResult({ tested, t, prefix, code }: { tested: TestAnswer; t: T; prefix: string; code: string }) {
  return (
    <Alert
      style={{ marginBottom: 16 }}
      showIcon
      type={tested.ok ? "success" : "error"}
      title={tested.ok ? t("testOk") : t("testFailed")}
      description={tested.detail === code ? t("credentialsNeededHint") : tested.detail}
      data-testid={`${prefix}-test-result`}
    />
  );
}

/** The webhook URL to copy, once the connection is saved (its token makes the URL). */
export function WebhookInfo({ url, t, prefix }: { url: string | null; t: T; prefix: string }) {
  return (
    <div style={{ marginBottom: 16 }} data-testid={`${prefix}-webhook-info`}>
      {url ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid={`${prefix}-webhook-url`}>
          {t("webhookAt")}
          <br />
          <Typography.Text code copyable={{ text: url, tooltips: [t("copy"), t("copied")] }} style={{ wordBreak: "break-all" }}>
            {url}
          </Typography.Text>
        </Typography.Paragraph>
      ) : (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t("webhookAfterSave")}
        </Typography.Paragraph>
      )}
    </div>
  );
}
