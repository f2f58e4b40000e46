/**
 * The error a plugin throws for a client's mistake: a code of its manifest's `platform.errors`
 * (status and texts in four languages, merged into the core's catalogue), and the data its
 * texts' `{{placeholders}}` read. The core's gateway answers it like its own codes:
 *
 *   throw new PluginError("ERR_KANBAN_COLUMN_NOT_EMPTY", 409, { cards: 3 });
 *
 * The status is the manifest's; the one given here is what a caller sees on the bus.
 */
import { Errors } from "moleculer";

export class PluginError extends Errors.MoleculerClientError {
  constructor(code: string, status = 400, data: Record<string, unknown> = {}) {
    super(code, status, code, data);
    this.name = "PluginError";
  }
}
