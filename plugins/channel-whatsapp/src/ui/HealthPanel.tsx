import { useCallback, useEffect, useState } from "react";
import { Button, Descriptions, Divider, Skeleton, Typography } from "antd";
import { SyncOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { formatTime, type Health } from "./shared";

/** The session's health as the plugin measures it (GET /channel-whatsapp/health), read again on demand. */
export default function HealthPanel({ token, runtime }: { token: string; runtime: ShellRuntime }) {
  const t = runtime.t;
  const [health, setHealth] = useState<Health | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setHealth(await runtime.api.get<Health>("/channel-whatsapp/health", { query: { token }, silent: true }));
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setLoading(false);
    }
  }, [runtime, token]);

  useEffect(() => void load(), [load]);

  const at = (ms: number | null | undefined) => formatTime(ms, runtime.locale, t("never"));
  const n = (v: number | undefined) => (typeof v === "number" ? v.toLocaleString(runtime.locale) : "—");

  return (
    <div data-testid="whatsapp-health">
      <Divider titlePlacement="start">
        <span style={{ display: "inline-flex", alignItems: "center", gap: 8 }}>
          {t("healthTitle")}
          <Button size="small" type="text" icon={<SyncOutlined spin={loading} />} onClick={() => void load()} aria-label={t("refresh")} data-testid="whatsapp-health-refresh" />
        </span>
      </Divider>
      {!health ? (
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      ) : (
        <>
          {!health.node ? (
            <Typography.Paragraph type="secondary" data-testid="whatsapp-health-idle">
              {t("notRunning")}
            </Typography.Paragraph>
          ) : null}
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
            <Descriptions.Item label={t("hStatus")}>
              <span data-testid="whatsapp-health-status">{t(`status.${health.status}`)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("hPhone")}>{health.phone ? `+${health.phone}` : "—"}</Descriptions.Item>
            <Descriptions.Item label={t("hConnectedAt")}>{at(health.connectedAt)}</Descriptions.Item>
            <Descriptions.Item label={t("hNode")}>{health.node ?? "—"}</Descriptions.Item>
            <Descriptions.Item label={t("hLastInbound")}>{at(health.lastInboundAt)}</Descriptions.Item>
            <Descriptions.Item label={t("hLastAck")}>{at(health.lastAckAt)}</Descriptions.Item>
            <Descriptions.Item label={t("hInbound")}>
              <span data-testid="whatsapp-health-inbound">{n(health.inbound)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("hReconnects")}>
              <span data-testid="whatsapp-health-reconnects">{n(health.reconnects)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("hDecryption")}>
              {n(health.decryptionErrors)}
              {health.decryptionErrorsLastHour ? <Typography.Text type="danger"> · {t("hDecryptionHour", { n: health.decryptionErrorsLastHour })}</Typography.Text> : null}
            </Descriptions.Item>
            <Descriptions.Item label={t("hDeaf")}>{n(health.deafRebuilds)}</Descriptions.Item>
            <Descriptions.Item label={t("hQrRounds")}>{n(health.qrRounds)}</Descriptions.Item>
            <Descriptions.Item label={t("hLastDisconnect")}>
              {health.lastDisconnect ? `${at(health.lastDisconnect.at)} · ${health.lastDisconnect.reason}${health.lastDisconnect.code ? ` (${health.lastDisconnect.code})` : ""}` : "—"}
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </div>
  );
}
