/**
 * Downloads a report's export: the shell's api client reads answers as JSON or text, so a file
 * is fetched here with the session the shell keeps (spec §3: token and sessionId in the
 * browser's storage) and handed to the browser as a file. A refused export shows its
 * translated error. Shared by every report plugin's page.
 */
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

function fileNameOf(disposition: string | null, fallback: string): string {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "");
  return m ? decodeURIComponent(m[1]) : fallback;
}

export async function downloadExport(runtime: ShellRuntime, path: string, query: Record<string, string | undefined>, fallback: string): Promise<void> {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1])).toString();
  const headers: Record<string, string> = { "X-Locale": runtime.locale };
  const token = localStorage.getItem("token");
  const sessionId = localStorage.getItem("sessionId");
  if (token) headers.Authorization = `Bearer ${token}`;
  if (sessionId) headers["X-Session-Id"] = sessionId;
  const res = await fetch(`/api${path}?${qs}`, { headers });
  if (!res.ok) {
    const b = (await res.json().catch(() => ({}))) as { error?: string; title?: string; message?: string };
    runtime.notify.error(Object.assign(new Error(b.title ?? String(res.status)), { status: res.status, code: b.error ?? "ERR_UNIDENTIFIED", title: b.title ?? "", detail: b.message ?? "", data: {} }));
    return;
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileNameOf(res.headers.get("content-disposition"), fallback);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
