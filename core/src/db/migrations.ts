import type { Migration } from "./migration";
import { m0001 } from "../tenants/migrations/0001-tenants";
import { m0002 } from "../users/migrations/0002-users";
import { m0003 } from "../auth/migrations/0003-auth";
import { m0004 } from "../settings/migrations/0004-settings-queues";
import { m0005 } from "../contacts/migrations/0005-contacts";
import { m0006 } from "../connections/migrations/0006-connections";
import { m0007 } from "../tickets/migrations/0007-tickets-messages";
import { m0008 } from "../plugins/migrations/0008-plugins";
import { m0009 } from "../tickets/migrations/0009-list-indexes";
import { m0010 } from "../plugins/migrations/0010-plugin-enablement-versions";
import { m0011 } from "../channels/migrations/0011-plugin-outbox";
import { m0012PluginInstalls } from "../plugins/migrations/0012-plugin-installs";
import { m0013 } from "../channels/migrations/0013-outbox-operations";
import { m0014 } from "../messages/migrations/0014-message-participant";
import { m0015 } from "../system/migrations/0015-installation";
import { m0016 } from "../tickets/migrations/0016-list-order-indexes";
import { m0017 } from "../business-time/migrations/0017-business-time";
import { m0018 } from "../automation/migrations/0018-automatic-messages";
import { m0019 } from "../chatbots/migrations/0019-chatbots";
import { m0020 } from "../messages/migrations/0020-message-idempotency";
import { m0021 } from "../hooks/migrations/0021-inbound-claims";

/**
 * The core's migrations, in order. A new one goes at the end; an applied one is never edited.
 * Service packages bring their own (the marketplace's "0012-marketplace"), which the migrator
 * runs after these (migrator.ts collectMigrations).
 */
export const MIGRATIONS: Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012PluginInstalls, m0013, m0014, m0015, m0016, m0017, m0018, m0019, m0020, m0021];
export type { Migration };
