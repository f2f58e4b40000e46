import type { IsEnabledResult } from "@openatende/plugin-sdk";
import type { ErrorCode } from "../errors/codes";

/**
 * The error each "no" of plugins.availability is thrown as. Shared by the plugin host (which
 * throws them) and by the services that stop a connection for the same reason (connections,
 * channels), so they import this file, not the plugins service.
 */
export const AVAILABILITY_ERRORS: Record<NonNullable<IsEnabledResult["reason"]>, ErrorCode> = {
  unknown: "ERR_PLUGIN_NOT_FOUND",
  refused: "ERR_PLUGIN_UNAVAILABLE",
  version: "ERR_PLUGIN_VERSION_UNAVAILABLE",
  not_allowed: "ERR_PLUGIN_NOT_ALLOWED",
  disabled: "ERR_PLUGIN_DISABLED",
  tier: "ERR_LICENSE_TIER_REQUIRED",
};
