import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * Plugins per tenant and side by side:
 * - tenant_plugins.allowed: the platform level's (super) decision for the tenant, apart from
 *   the tenant admin's own switch (`enabled`). NULL: no decision, the default policy applies
 *   (core/src/plugins/plugins.service.ts `allowedByDefault`). allowedBy: who decided.
 * - connections.pluginMajor: the major version of the channel plugin the connection was made
 *   with; its traffic keeps going to that major ("v<major>.<id>"). NULL (rows made before
 *   this migration): the newest loaded major, pinned at the next connect.
 * - connections.inactiveReason: the error code why the platform stopped the connection (its
 *   plugin disabled, not allowed, above the tenant's tier, or its major not installed);
 *   resumeStatus: the status it had then, so re-enabling reconnects only what was running.
 */
export const m0010: Migration = {
  name: "0010-plugin-enablement-versions",
  async up(qi) {
    await qi.addColumn("tenant_plugins", "allowed", { type: DataTypes.BOOLEAN, allowNull: true });
    await qi.addColumn("tenant_plugins", "allowedBy", { type: DataTypes.INTEGER, allowNull: true });
    await qi.addColumn("connections", "pluginMajor", { type: DataTypes.INTEGER, allowNull: true });
    await qi.addColumn("connections", "inactiveReason", { type: DataTypes.STRING(64), allowNull: true });
    await qi.addColumn("connections", "resumeStatus", { type: DataTypes.STRING(16), allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn("connections", "resumeStatus");
    await qi.removeColumn("connections", "inactiveReason");
    await qi.removeColumn("connections", "pluginMajor");
    await qi.removeColumn("tenant_plugins", "allowedBy");
    await qi.removeColumn("tenant_plugins", "allowed");
  },
};
