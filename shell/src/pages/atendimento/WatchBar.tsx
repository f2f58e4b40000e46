import { useEffect, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button } from "antd";
import { EyeOutlined, UserOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { Ticket } from "../../stores/tickets";
import type { Attendance } from "./attendance";

/**
 * Spec §4 "watch": a ticket that is not the user's — waiting in a queue, or with someone
 * else — opens read-only. Looking reads nothing for its holder and sends the customer no
 * read receipt (GET /messages/{id}?watch=true); the user takes it when they decide to.
 */
export function isWatching(t: Pick<Ticket, "status" | "userId"> | null | undefined, me: number | null): boolean {
  return !!t && (t.status === "pending" || (t.status === "open" && t.userId !== me));
}

/** What replaces the composer on someone else's open ticket: who holds it, and "take over" for those who may. */
export const WatchBar = observer(function WatchBar({ a, ticket }: { a: Attendance; ticket: Ticket }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [busy, setBusy] = useState(false);
  const holder = a.user(ticket.userId)?.name ?? "—";
  const known = !!a.user(ticket.userId);
  // A holder the team list does not know yet (a user added since it loaded): read it again.
  useEffect(() => {
    if (ticket.userId && !known) void a.loadDirectory(true);
  }, [ticket.userId, known]);
  // Someone else's ticket is for supervisors and admins to take (the API's rule).
  const mayTake = root.session.isSupervisorOrAdmin;

  async function take() {
    setBusy(true);
    try {
      a.applyTicket(await root.api.put<Ticket>(`/tickets/${ticket.id}`, { status: "open" }));
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="oa-composer oa-composer-blocked oa-watch-bar" data-testid="watch-bar">
      <EyeOutlined />
      <span>{t("atendimento.watch.other", { name: holder })}</span>
      {mayTake ? (
        <Button type="primary" icon={<UserOutlined />} loading={busy} onClick={() => void take()} data-testid="watch-take">
          {t("atendimento.actions.takeOver")}
        </Button>
      ) : null}
    </div>
  );
});
