import { useEffect, type Dispatch, type SetStateAction } from "react";
import type { RootStore } from "../../../app/root";
import type { ConnectionStatusEvent, ConnectionView } from "./types";

/**
 * Live status: the socket reports every status change of a connection to the tenant's admins
 * (`${tenantId}:connectionStatus`). A row is updated in place, and the QR shown follows it; a
 * connection not in the list (made in another tab) reloads the list.
 */
export function useConnectionStatus(
  root: RootStore,
  tenantId: number | null | undefined,
  setRows: Dispatch<SetStateAction<ConnectionView[]>>,
  setQr: Dispatch<SetStateAction<ConnectionView | null>>,
  reload: () => void,
) {
  useEffect(() => {
    if (!tenantId) return;
    return root.realtime.on(`${tenantId}:connectionStatus`, (p: ConnectionStatusEvent) => {
      const s = p?.session;
      if (!s?.id) return;
      setRows((rs) => {
        if (!rs.some((r) => r.id === s.id)) {
          reload();
          return rs;
        }
        return rs.map((r) =>
          r.id === s.id
            ? { ...r, status: s.status, qrcode: s.status === "qrcode" ? (s.qrcode ?? r.qrcode) : null, statusDetail: s.detail ?? null, inactiveReason: s.inactiveReason ?? null, updatedAt: new Date().toISOString() }
            : r,
        );
      });
      setQr((cur) => (cur && cur.id === s.id ? (s.status === "qrcode" ? { ...cur, qrcode: s.qrcode ?? cur.qrcode } : null) : cur));
    });
  }, [root, tenantId, setRows, setQr, reload]);
}
