import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { Button, Popconfirm, Space, Tooltip, Typography } from "antd";
import { DeleteOutlined, EditOutlined } from "@ant-design/icons";
import type { FormInstance } from "antd";
import type { TFunction } from "i18next";
import { ApiError, type ApiClient } from "../../api/client";
import "./settings.css";

/** Title, one line of help and the actions of a page or a settings section. */
export function SectionHeader({ title, description, extra, level = 4 }: { title: ReactNode; description?: ReactNode; extra?: ReactNode; level?: 3 | 4 }) {
  return (
    <div className="oa-section-head">
      <div className="oa-section-title">
        <Typography.Title level={level} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {description ? <Typography.Text type="secondary">{description}</Typography.Text> : null}
      </div>
      {extra ? <div className="oa-section-actions">{extra}</div> : null}
    </div>
  );
}

/** One entry of the API's validation list (`data.errors`). */
interface RuleError {
  field?: string;
  rule?: string;
  expected?: unknown;
}

/**
 * Field → translated message of an API error that names fields: `ERR_VALIDATION` (one entry
 * per field of `data.errors`) or a business code with `data.field` (name taken, number
 * invalid…). `prefix` keeps only the fields under it ("settings.") and strips it.
 */
export function fieldErrorsOf(e: unknown, t: TFunction, prefix = ""): Record<string, string> {
  if (!(e instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  const put = (field: unknown, msg: string) => {
    if (typeof field !== "string" || !field) return;
    if (prefix && !field.startsWith(prefix)) return;
    if (!prefix && field.includes(".")) return;
    const k = prefix ? field.slice(prefix.length) : field;
    if (k && !out[k]) out[k] = msg;
  };
  if (e.code === "ERR_VALIDATION") {
    const list = (Array.isArray(e.data.errors) ? e.data.errors : [{ field: e.data.field, rule: e.data.rule }]) as RuleError[];
    for (const r of list) put(r.field, ruleMessage(t, r.rule, r.expected));
  } else if (typeof e.data.field === "string") {
    put(e.data.field, e.detail || e.title);
  }
  return out;
}

/** A short message for a validation rule of the API (fastest-validator's names and ours). */
export function ruleMessage(t: TFunction, rule: string | undefined, expected?: unknown): string {
  const key = `configuracoes.rules.${rule ?? "any"}`;
  const msg = t(key, { expected });
  return msg === key ? t("configuracoes.rules.any") : msg;
}

/**
 * Shows the fields an API error names on an antd form; true when at least one field of the
 * form got its message (the caller then shows no toast of its own).
 */
export function applyFieldErrors(form: FormInstance, e: unknown, t: TFunction, known: readonly string[]): boolean {
  const errs = fieldErrorsOf(e, t);
  const hits = Object.entries(errs).filter(([f]) => known.includes(f));
  if (!hits.length) return false;
  form.setFields(hits.map(([name, msg]) => ({ name, errors: [msg] })));
  return true;
}

/** A date-time of the API in the user's language, short. */
export function formatDateTime(v: string | Date | null | undefined, locale: string): string {
  if (!v) return "—";
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toLocaleString(locale, { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Readable text on a coloured background: black or white by luminance. */
export function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#fff";
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16) / 255);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.6 ? "#1d2321" : "#fff";
}

/** Colours offered for tags (and anywhere a colour is picked). */
export const PRESET_COLORS = [
  "#0a7d4f",
  "#16a34a",
  "#0891b2",
  "#2563eb",
  "#5c6bc0",
  "#7c3aed",
  "#c026d3",
  "#db2777",
  "#dc2626",
  "#ea580c",
  "#d97706",
  "#ca8a04",
  "#4b5563",
  "#1d2321",
];

/** Initials of a name for an avatar. */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return "?";
  return ((parts[0][0] ?? "") + (parts.length > 1 ? parts[parts.length - 1][0] ?? "" : "")).toUpperCase();
}

/** A stable colour for an avatar from a name or id. */
export function avatarColor(seed: string | number): string {
  const s = String(seed);
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  const palette = ["#0a7d4f", "#0891b2", "#2563eb", "#7c3aed", "#c026d3", "#db2777", "#ea580c", "#ca8a04", "#4b5563"];
  return palette[h % palette.length];
}

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

/** A row's edit button and its delete button behind a confirmation. */
export function EditDeleteActions({ t, onEdit, onDelete, deleteTitle, deleteDetail }: { t: TFunction; onEdit(): void; onDelete(): unknown; deleteTitle: ReactNode; deleteDetail: ReactNode }) {
  return (
    <Space size={4}>
      <Tooltip title={t("common.edit")}>
        <Button type="text" icon={<EditOutlined />} onClick={onEdit} aria-label={t("common.edit")} />
      </Tooltip>
      <Popconfirm title={deleteTitle} description={deleteDetail} okText={t("common.delete")} cancelText={t("common.cancel")} okButtonProps={{ danger: true }} onConfirm={() => void onDelete()}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} />
      </Popconfirm>
    </Space>
  );
}
