import { useEffect, useMemo, useState } from "react";
import { useRoot } from "../../../app/context";
import type { TargetType } from "./types";

export interface TargetOption {
  value: number;
  label: string;
}

interface Named {
  id: number;
  name: string;
}
interface ConnectionRow extends Named {
  type: string;
}

/** Connection types that are WhatsApp whatever their plugin's manifest says (the linked-device and wuzapi channels). */
const WHATSAPP_TYPES = ["channel-whatsapp", "channel-wuzapi"];
/** Users read a page at a time (GET /users allows 200). */
const USERS_PAGE = 200;

/**
 * What a schedule or a holiday can be for: the tenant's queues (GET /queues), users (GET
 * /users, every page) and WhatsApp connections (GET /connections, those of a WhatsApp channel:
 * its plugin draws the WhatsApp icon, or it is one of the WhatsApp channels).
 */
export function useTargets() {
  const root = useRoot();
  const [queues, setQueues] = useState<Named[]>([]);
  const [users, setUsers] = useState<Named[]>([]);
  const [connections, setConnections] = useState<ConnectionRow[]>([]);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    const allUsers = async () => {
      const out: Named[] = [];
      for (let page = 1; ; page++) {
        const r = await root.api.get<{ users: Named[]; hasMore: boolean }>("/users", { query: { pageNumber: page, pageSize: USERS_PAGE } });
        out.push(...r.users);
        if (!r.hasMore) return out;
      }
    };
    Promise.all([root.api.get<Named[]>("/queues").catch(() => []), allUsers().catch(() => []), root.api.get<ConnectionRow[]>("/connections").catch(() => [])]).then(([q, u, c]) => {
      if (!live) return;
      setQueues(q);
      setUsers(u);
      setConnections(c);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [root]);

  const enabled = root.plugins.enabled;
  const options = useMemo(() => {
    const isWhatsApp = (type: string) => WHATSAPP_TYPES.includes(type) || enabled.find((p) => p.id === type || p.channel?.type === type)?.icon === "whatsapp";
    const opt = (rows: Named[]) => rows.map((r) => ({ value: r.id, label: r.name })).sort((a, b) => a.label.localeCompare(b.label));
    return { queue: opt(queues), user: opt(users), whatsapp: opt(connections.filter((c) => isWhatsApp(c.type))) } satisfies Record<TargetType, TargetOption[]>;
  }, [queues, users, connections, enabled]);

  /** A target's name (every connection is named, WhatsApp or not: an old schedule may name one). */
  const nameOf = (type: string, id: number): string | undefined => {
    const list = type === "queue" ? queues : type === "user" ? users : type === "whatsapp" ? connections : [];
    return list.find((r) => r.id === id)?.name;
  };

  return { options, nameOf, loading };
}
