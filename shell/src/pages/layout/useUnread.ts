import { useEffect, useState } from "react";
import type { RootStore } from "../../app/root";

const UNREAD_REFRESH_MS = 3_000;

/** Open + pending tickets with unread messages (GET /tickets/unread-count), refreshed by the ticket events. */
export function useUnread(root: RootStore): number {
  const [count, setCount] = useState(0);
  const tenantId = root.session.tenantId;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const load = async () => {
      last = Date.now();
      try {
        const r = await root.api.get<{ open: number; pending: number }>("/tickets/unread-count", { silent: true });
        if (live) setCount((r.open ?? 0) + (r.pending ?? 0));
      } catch {
        /* the badge keeps its last value */
      }
    };
    // At most one request every few seconds, however many events arrive.
    const schedule = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void load();
      }, Math.max(0, UNREAD_REFRESH_MS - (Date.now() - last)));
    };
    void load();
    const offs = [root.realtime.on(`${tenantId}:ticketList`, schedule), root.realtime.on(`${tenantId}:appMessage`, schedule)];
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [tenantId]);
  return count;
}
