import { FILE_MAX_BYTES, FILES_TOTAL_MAX_BYTES } from "../../ui/constants";
import { fileSize } from "./format";

/** The API takes at most 10 files in one send. */
export const MAX_FILES = 10;

/**
 * Files the composer may take (spec §5/§9): 10 MB each, 30 MB in total, at most 10 per send.
 * Answers the indexes of the accepted files and why the others were refused, before anything
 * is uploaded.
 */
export function checkFiles(current: readonly { size: number }[], incoming: readonly { name: string; size: number }[], locale: string, t: (k: string, v?: Record<string, unknown>) => string) {
  const ok: number[] = [];
  const errors: string[] = [];
  let total = current.reduce((s, f) => s + f.size, 0);
  let count = current.length;
  incoming.forEach((f, i) => {
    if (f.size > FILE_MAX_BYTES) {
      errors.push(t("atendimento.composer.fileTooBig", { name: f.name, size: fileSize(f.size, locale), max: fileSize(FILE_MAX_BYTES, locale) }));
      return;
    }
    if (total + f.size > FILES_TOTAL_MAX_BYTES) {
      errors.push(t("atendimento.composer.filesTooBig", { name: f.name, max: fileSize(FILES_TOTAL_MAX_BYTES, locale) }));
      return;
    }
    if (count >= MAX_FILES) {
      errors.push(t("atendimento.composer.tooManyFiles", { max: MAX_FILES }));
      return;
    }
    total += f.size;
    count++;
    ok.push(i);
  });
  return { ok, errors };
}
