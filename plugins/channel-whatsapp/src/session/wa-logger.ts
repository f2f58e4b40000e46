/**
 * The logger Baileys gets: its warnings and errors go to the service's logger at warn level,
 * one line each, never a stack, and the same line at most once a minute per session (a Bad
 * MAC storm is counted in the session's health, not written 168 000 times: Baileys #2234).
 * Its trace, debug and info lines are dropped. Level "silent" drops everything.
 */
import type { Clock } from "./clock";

/** Baileys' ILogger (lib/Utils/logger.d.ts), which its index does not export. */
export interface ILogger {
  level: string;
  child(obj: Record<string, unknown>): ILogger;
  trace(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface LineLogger {
  warn(...args: unknown[]): void;
}

const REPEAT_MS = 60_000;

function lineOf(obj: unknown, msg?: string): string {
  const o = (obj && typeof obj === "object" ? obj : {}) as { err?: { message?: string }; error?: { message?: string }; msg?: string };
  const text = msg ?? (typeof obj === "string" ? obj : (o.msg ?? ""));
  const why = o.err?.message ?? o.error?.message;
  return why ? `${text}: ${why}` : text;
}

export function waLogger(log: LineLogger, scope: string, level: "warn" | "silent", clock: Clock): ILogger {
  const last = new Map<string, { at: number; suppressed: number }>();
  const write = (kind: "warn" | "error", obj: unknown, msg?: string) => {
    if (level === "silent") return;
    const line = lineOf(obj, msg);
    const now = clock.now();
    const seen = last.get(line);
    if (seen && now - seen.at < REPEAT_MS) {
      seen.suppressed++;
      return;
    }
    if (last.size > 200) last.clear();
    last.set(line, { at: now, suppressed: 0 });
    const again = seen?.suppressed ? ` (${seen.suppressed} more since the last one)` : "";
    log.warn(`${scope}: baileys ${kind}: ${line}${again}`);
  };
  const logger: ILogger = {
    level,
    child: () => logger,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (obj, msg) => write("warn", obj, msg),
    error: (obj, msg) => write("error", obj, msg),
  };
  return logger;
}
