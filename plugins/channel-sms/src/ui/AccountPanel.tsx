import { useCallback, useEffect, useState } from "react";
import { Alert, Button, Divider, Space, Statistic, Typography } from "antd";
import type { ConnectFormProps } from "@openatende/plugin-sdk/ui";

interface Credits {
  provider: string;
  credits: number;
  checkedAt: number;
}

/** A saved connection's account: its credits at the provider (read when shown, and on demand) and the callback addresses to paste in the provider's panel. */
export default function AccountPanel({ connection, runtime }: Pick<ConnectFormProps, "connection" | "runtime">) {
  const t = runtime.t;
  const token = connection?.token ?? null;
  const [credits, setCredits] = useState<Credits | null>(null);
  const [creditsError, setCreditsError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [hooks, setHooks] = useState<{ status: string; inbound: string } | null>(null);

  const refresh = useCallback(async () => {
    if (!token) return;
    setLoading(true);
    setCreditsError(null);
    try {
      setCredits(await runtime.api.post<Credits>("/sms/credits", { token }, { silent: true }));
    } catch (err) {
      const e = err as { title?: string; detail?: string; message?: string };
      setCredits(null);
      setCreditsError([e.title, e.detail || e.message].filter(Boolean).join(": "));
    } finally {
      setLoading(false);
    }
  }, [runtime, token]);

  useEffect(() => {
    if (!token) return;
    void refresh();
    runtime.api.post<{ status: string; inbound: string }>("/sms/webhooks", { token }, { silent: true }).then(setHooks, () => setHooks(null));
  }, [runtime, token, refresh]);

  if (!token) {
    return (
      <Typography.Paragraph type="secondary" data-testid="sms-account-after-save">
        {t("afterSave")}
      </Typography.Paragraph>
    );
  }
  const copyable = (text: string) => ({ text, tooltips: [t("copy"), t("copied")] as [string, string] });

  return (
    <div data-testid="sms-account-panel">
      <Divider titlePlacement="start">{t("creditsTitle")}</Divider>
      <Space align="end" size="large">
        <Statistic title={t("credits")} value={credits ? credits.credits : "—"} loading={loading && !credits} data-testid="sms-credits" />
        <Button onClick={() => void refresh()} loading={loading} data-testid="sms-credits-refresh">
          {t("refresh")}
        </Button>
      </Space>
      {credits && credits.credits <= 0 ? <Alert style={{ marginTop: 12 }} type="warning" showIcon title={t("noCredits")} data-testid="sms-no-credits" /> : null}
      {creditsError ? <Alert style={{ marginTop: 12 }} type="error" showIcon title={t("creditsFailed")} description={creditsError} data-testid="sms-credits-error" /> : null}
      <Divider titlePlacement="start">{t("callbacksTitle")}</Divider>
      <Typography.Paragraph type="secondary">{t("callbacksHint")}</Typography.Paragraph>
      {hooks ? (
        <div data-testid="sms-callbacks">
          <Typography.Paragraph>
            {t("callbackStatus")}
            <br />
            <Typography.Text code copyable={copyable(hooks.status)} style={{ wordBreak: "break-all" }}>
              {hooks.status}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Paragraph>
            {t("callbackInbound")}
            <br />
            <Typography.Text code copyable={copyable(hooks.inbound)} style={{ wordBreak: "break-all" }}>
              {hooks.inbound}
            </Typography.Text>
          </Typography.Paragraph>
        </div>
      ) : null}
    </div>
  );
}
