/**
 * An installed plugin's Redis user (THREAT-MODEL.md): its node gets a REDIS_URL with a user of
 * its own whose ACL opens only the plugin's keys, `<installation prefix>:<plugin id>:*` (its
 * Bull queues too, when given that prefix), and pub/sub channels of the same pattern. No admin
 * or dangerous command (FLUSHALL, KEYS, CONFIG, ACL, DEBUG…), no SCAN or RANDOMKEY (they list
 * every key's name). Its name is a hash of the installation prefix and the plugin id, its
 * password an HMAC of the core's secret: the host keeps nothing and gives the same URL on
 * every start. The core's own connection (REDIS_URL, its password or default user) is not
 * touched: ACL SETUSER only adds or resets the plugin's user.
 */
import { createHash, createHmac } from "node:crypto";
import type Redis from "ioredis";
import type { AppConfig } from "@openatende/config";
import { busKeyOf } from "../middlewares/caller-identity";

/** `<installation prefix>:<id>:` (the prefix as the host keeps it, with or without its colon). */
export function pluginKeyPrefix(installationPrefix: string, id: string): string {
  return `${installationPrefix.replace(/:$/, "")}:${id}:`;
}

/** How the names of an installation's plugin Redis users start: `oap-<hash of the installation prefix>-`. */
export function pluginRedisUserPrefix(installationPrefix: string): string {
  return `oap-${createHash("sha256").update(installationPrefix.replace(/:$/, "")).digest("hex").slice(0, 16)}-`;
}

export function pluginRedisUser(config: AppConfig, installationPrefix: string, id: string): { user: string; password: string } {
  const scope = pluginKeyPrefix(installationPrefix, id);
  const user = `${pluginRedisUserPrefix(installationPrefix)}${id}`;
  const password = createHmac("sha256", busKeyOf(config.jwtSecret)).update(`plugin-redis/${scope}`).digest("base64url");
  return { user, password };
}

/** The core's REDIS_URL (host, port, database, TLS) with the plugin's user instead of the core's credentials. */
export function pluginRedisUrl(config: AppConfig, installationPrefix: string, id: string): string {
  const { user, password } = pluginRedisUser(config, installationPrefix, id);
  const u = new URL(config.redisUrl);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/** The ACL rules of the plugin's user: its keys and channels, the commands of an application and nothing more. */
export function pluginAclRules(installationPrefix: string, id: string, password: string): string[] {
  const scope = pluginKeyPrefix(installationPrefix, id);
  // Glob special characters in the prefix match literally.
  const pattern = `${scope.replace(/[*?[\]\\]/g, "\\$&")}*`;
  return ["reset", "on", `>${password}`, `~${pattern}`, `&${pattern}`, "+@all", "-@admin", "-@dangerous", "-scan", "-randomkey", "+info", "+client|setname", "+client|getname", "+client|id"];
}

/** Creates or resets the plugin's Redis user with the core's connection (which needs ACL rights: the default user has them). */
export async function ensurePluginRedisUser(config: AppConfig, redis: Redis, installationPrefix: string, id: string): Promise<void> {
  const { user, password } = pluginRedisUser(config, installationPrefix, id);
  await redis.call("ACL", "SETUSER", user, ...pluginAclRules(installationPrefix, id, password));
}

/** Removes the plugin's Redis user (an uninstalled plugin): its keys stay, nobody logs in as it. */
export async function dropPluginRedisUser(config: AppConfig, redis: Redis, installationPrefix: string, id: string): Promise<void> {
  await redis.call("ACL", "DELUSER", pluginRedisUser(config, installationPrefix, id).user);
}
