import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "antd";
import { ClockCircleOutlined } from "@ant-design/icons";
import { formatDateTime } from "../../ui/format";
import type { WindowNow } from "./service-window";

/** The time now, again every `everyMs` (the window closes while the chat stays open). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(h);
  }, [everyMs]);
  return now;
}

/**
 * In place of the composer when the provider's customer-service window has closed and no
 * plugin offers its template picker here (the channel plugin's composer replacement does):
 * free text would be refused by the provider (WhatsApp's 131047), so none is offered.
 */
export function WindowClosedBar({ w }: { w: WindowNow }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="oa-composer" data-testid="window-closed">
      <Alert
        type="warning"
        showIcon
        icon={<ClockCircleOutlined />}
        message={t("atendimento.window.closedTitle", { hours: w.hours })}
        description={w.closesAt ? t("atendimento.window.closedSince", { when: formatDateTime(new Date(w.closesAt).toISOString(), i18n.language), hours: w.hours }) : t("atendimento.window.closedNever", { hours: w.hours })}
      />
    </div>
  );
}
