import { useCallback, useEffect, useMemo, useState } from "react";
import type { ApiClient } from "../api/client";

/** A row of a settings list that can be switched on and off and is found by name. */
export interface NamedRow {
  id: number;
  name: string;
  active: boolean;
}

/**
 * The list of a settings page over one REST collection (`/tags`, `/queues`): loaded once,
 * filtered by name, switched on and off row by row (PUT `<path>/<id>` {active}), and kept in
 * name order when a row is saved. Errors are shown by the API client.
 */
export function useNamedRows<T extends NamedRow>(api: ApiClient, path: string) {
  const [rows, setRows] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [filter, setFilter] = useState("");
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await api.get<T[]>(path));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [api, path]);
  useEffect(() => void load(), [load]);

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? rows.filter((r) => r.name.toLowerCase().includes(q)) : rows;
  }, [rows, filter]);

  const toggle = async (row: T, active: boolean) => {
    setBusy(row.id);
    try {
      const saved = await api.put<T>(`${path}/${row.id}`, { active }, { successNotice: true });
      setRows((rs) => rs.map((r) => (r.id === row.id ? saved : r)));
    } catch {
      /* shown by the client (the free plan's limit, …) */
    } finally {
      setBusy(null);
    }
  };

  /** A row created or edited: in place, or added in name order. */
  const saved = (row: T) => setRows((rs) => (rs.some((r) => r.id === row.id) ? rs.map((r) => (r.id === row.id ? row : r)) : [...rs, row]).sort((a, b) => a.name.localeCompare(b.name)));
  const removed = (id: number) => setRows((rs) => rs.filter((r) => r.id !== id));

  return { rows, loading, filter, setFilter, shown, busy, toggle, saved, removed };
}
