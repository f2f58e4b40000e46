import type { TemplatesListResult, TemplateStatus } from "@openatende/plugin-sdk";

/** What other core services (the core API of plugins) call on the templates service (templates.service.ts). */
export interface TemplatesActions {
  /** A page of a tenant's connection's templates: its not-found code for another tenant's connection, ERR_CHANNEL_UNSUPPORTED for a channel without templates. */
  "templates.listFor": { params: { tenantId: number; connectionId: number; after?: string; status?: TemplateStatus; limit?: number }; result: TemplatesListResult };
}
