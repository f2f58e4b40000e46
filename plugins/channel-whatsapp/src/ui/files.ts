/** Browser-only helpers (kept apart from shared.ts, which the plugin's node tests load). */

/** A file's bytes as base64 (no data: prefix). */
export function fileBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error ?? new Error("the file could not be read"));
    r.onload = () => {
      const s = String(r.result ?? "");
      resolve(s.slice(s.indexOf(",") + 1));
    };
    r.readAsDataURL(file);
  });
}
