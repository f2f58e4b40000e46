import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Switch, Tooltip } from "antd";
import { REALTIME_EVENTS, type UserStatusEvent } from "@openatende/contracts/realtime";
import { useRoot } from "../../app/context";

type Status = UserStatusEvent["status"];

/**
 * The header's online/offline switch (spec §4): the user's own status (PUT /users/{id}/status),
 * which supervisors see change live; kept in step with the user's other tabs by the socket.
 */
export function OnlineToggle({ compact }: { compact: boolean }) {
  const root = useRoot();
  const { t } = useTranslation();
  const { userId, tenantId } = root.session;
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (userId === null || tenantId === null) return;
    let live = true;
    root.api.get<{ status: Status }>(`/users/${userId}`, { silent: true }).then(
      (u) => live && setStatus(u.status === "offline" ? "offline" : "online"),
      () => undefined,
    );
    const off = root.realtime.on(REALTIME_EVENTS.userStatus(tenantId), (e: UserStatusEvent) => {
      if (e?.id === userId) setStatus(e.status);
    });
    return () => {
      live = false;
      off();
    };
  }, [userId, tenantId]);

  if (userId === null || status === null) return null;
  const online = status === "online";

  async function toggle(next: boolean) {
    setBusy(true);
    try {
      const r = await root.api.put<{ status: Status }>(`/users/${userId}/status`, { status: next ? "online" : "offline" });
      setStatus(r.status);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  }

  return (
    <Tooltip title={online ? t("layout.presence.onlineHint") : t("layout.presence.offlineHint")}>
      <label className={`oa-presence${online ? " is-online" : ""}`} data-testid="presence" data-status={status}>
        <Switch size="small" checked={online} loading={busy} onChange={(v) => void toggle(v)} aria-label={t("layout.presence.toggle")} data-testid="presence-toggle" />
        {compact ? null : <span>{online ? t("layout.presence.online") : t("layout.presence.offline")}</span>}
      </label>
    </Tooltip>
  );
}
