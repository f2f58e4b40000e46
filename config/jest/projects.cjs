/**
 * Which jest project a test file belongs to. Three projects, disjoint by construction:
 *
 *   unit         needs no MariaDB, Redis, NATS, Dovecot or browser and runs with all of them
 *                down, so it has no global setup. A test beside its source (`src/**`) is a unit
 *                test, and so is everything in contracts/, config/ and scripts/.
 *   integration  talks to the machine's services; its global setup checks that MariaDB and
 *                Redis answer before any file runs. A test in a `test/` folder is an
 *                integration test unless PURE lists it.
 *   browser      drives Debian's Chromium (`*.browser.test.ts`, and BROWSER below); most of them
 *                start a core, so it has the global setup too.
 *
 * A new test follows the folder rule with no edit here; list it only when it breaks the rule.
 */
const path = require("node:path");

/** Tests in a `test/` folder that need no service (checked with the services unreachable). */
const PURE = [
  "marketplace/test/fixture-conformance.test.ts",
  "marketplace/test/fixtures.test.ts",
  "plugins/channel-email/test/parse.test.ts",
  "plugins/channel-email/test/ui-validate.test.ts",
  "plugins/channel-telegram/test/conformance.test.ts",
  "plugins/channel-telegram/test/ui.test.ts",
  "plugins/channel-webchat/test/conformance.test.ts",
  "plugins/channel-whatsapp/test/contacts.test.ts",
  "plugins/channel-whatsapp/test/groups.test.ts",
  "plugins/channel-whatsapp/test/messages-*.test.ts",
  "plugins/channel-whatsapp/test/ui.test.ts",
  "plugins/channel-whatsapp/test/session/close-policy.test.ts",
  "plugins/channel-whatsapp/test/session/real-socket.test.ts",
  "plugins/channel-whatsapp/test/session/session.test.ts",
  "plugins/channel-wuzapi/test/conformance.test.ts",
  "plugins/channel-wuzapi/test/ui.test.ts",
  "plugins/module-kanban/test/board.test.ts",
  "plugins/module-kanban/test/conformance.test.ts",
  "plugins/module-notes/test/conformance.test.ts",
  "plugins/module-notes/test/filters.test.ts",
  "plugins/module-notes/test/texts.test.ts",
  "shell/test/atendimento.stores.test.ts",
  "shell/test/i18n.test.ts",
  "shell/test/marketplace.test.ts",
  "shell/test/stores.test.ts",
];

/** Tests beside their source that need a service all the same (MariaDB, Redis). */
const NEEDS_SERVICES = ["plugin-sdk/src/data/{migrate,pool,repository,schema,service}.test.ts"];

/** Browser tests whose name does not say so. */
const BROWSER = ["plugin-sdk/src/cli/dev.test.ts"];

const UNIT = ["contracts/**/*.test.ts", "config/**/*.test.ts", "scripts/**/*.test.ts", "**/src/**/*.test.ts", ...PURE];
const BROWSER_ALL = ["**/*.browser.test.ts", ...BROWSER];

/**
 * Each project's testMatch, in jest's order-sensitive form: a later glob overrides an earlier
 * one, a "!" glob takes a file out. Globs relative to the root, made absolute by testMatch().
 */
const GLOBS = {
  unit: [...UNIT, ...[...NEEDS_SERVICES, ...BROWSER_ALL].map(not)],
  integration: ["**/?(*.)test.ts", ...UNIT.map(not), ...NEEDS_SERVICES, ...BROWSER_ALL.map(not)],
  browser: BROWSER_ALL,
};

function not(glob) {
  return `!${glob}`;
}

/** The project's testMatch for a repository at `root`. */
function testMatch(project, root) {
  const base = root.replace(/[\\()[\]{}*?!+@]/g, "\\$&").split(path.sep).join("/");
  return GLOBS[project].map((g) => (g.startsWith("!") ? `!${base}/${g.slice(1)}` : `${base}/${g}`));
}

/** The projects whose testMatch takes `file` (absolute): exactly one for every test file. */
function projectsOf(file, root) {
  const { globsToMatcher } = require("jest-util");
  return Object.keys(GLOBS).filter((p) => globsToMatcher(testMatch(p, root))(file));
}

module.exports = { PURE, NEEDS_SERVICES, BROWSER, GLOBS, testMatch, projectsOf };
