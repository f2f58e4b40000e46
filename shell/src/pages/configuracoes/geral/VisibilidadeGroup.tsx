import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Select } from "antd";
import { useRoot } from "../../../app/context";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { FieldError, SwitchRow } from "./fields";
import { valueErrors } from "./errors";
import type { TenantSettingsApi } from "./useTenantSettings";

interface UserOption {
  id: number;
  name: string;
  email?: string;
}
/** GET /users answers at most 200 a page; a tenant's team is read in pages of that. */
const USERS_PAGE = 200;

/** The tenant's users (GET /users, every page), for the groups-tab choice. */
function useTenantUsers(): UserOption[] | null {
  const root = useRoot();
  const [users, setUsers] = useState<UserOption[] | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const all: UserOption[] = [];
      for (let page = 1; ; page++) {
        const r = await root.api.get<{ users: UserOption[]; hasMore: boolean }>("/users", { query: { pageSize: USERS_PAGE, pageNumber: page }, silent: true });
        all.push(...r.users);
        if (!r.hasMore) break;
      }
      return all;
    })().then(
      (all) => live && setUsers(all),
      () => live && setUsers([]),
    );
    return () => {
      live = false;
    };
  }, [root]);
  return users;
}

const SWITCHES = [
  { key: "hideContactInfo", id: "hide-contact-info" },
  { key: "ticketsOwnerOnly", id: "tickets-owner-only" },
  { key: "botAndUnassignedAdminOnly", id: "bot-unassigned-admin-only" },
  { key: "forceWalletDelivery", id: "force-wallet-delivery" },
] as const;

/** Visibilidade (spec §6): what non-admins see of contacts and tickets, the groups tab, delivery by wallet. */
export function VisibilidadeGroup({ settings }: { settings: TenantSettingsApi }) {
  const { t } = useTranslation();
  const { get, save, saving } = settings;
  const users = useTenantUsers();
  const [groupsError, setGroupsError] = useState<string | null>(null);
  const hiddenFor = get("groupsHiddenForUsers");

  const saveHiddenFor = async (ids: number[]) => {
    const e = await save("groupsHiddenForUsers", ids);
    setGroupsError(e ? (Object.values(valueErrors(e, t))[0] ?? e.title) : null);
  };

  return (
    <SettingsGroup id="visibilidade" title={t("geral.groups.visibilidade.title")} description={t("geral.groups.visibilidade.description")}>
      {SWITCHES.slice(0, 3).map(({ key, id }) => (
        <SwitchRow key={key} id={id} label={t(`geral.visibility.${key}.label`)} hint={t(`geral.visibility.${key}.hint`)} checked={get(key)} busy={saving === key} onChange={(on) => void save(key, on)} />
      ))}
      <SettingRow id="groups-hidden" label={t("geral.visibility.groupsHiddenForUsers.label")} hint={t("geral.visibility.groupsHiddenForUsers.hint")}>
        <div className="oa-geral-field">
          <Select
            mode="multiple"
            allowClear
            value={hiddenFor}
            loading={!users || saving === "groupsHiddenForUsers"}
            onChange={(ids: number[]) => void saveHiddenFor(ids)}
            placeholder={t("geral.visibility.groupsHiddenForUsers.placeholder")}
            optionFilterProp="label"
            notFoundContent={t("geral.visibility.groupsHiddenForUsers.empty")}
            aria-labelledby="setting-groups-hidden-label"
            data-testid="groups-hidden-users"
            style={{ width: "100%" }}
            options={[
              ...(users ?? []).map((u) => ({ value: u.id, label: u.name, title: u.email })),
              // A chosen user no longer listed (removed) still shows, so it can be taken off.
              ...hiddenFor.filter((id) => users && !users.some((u) => u.id === id)).map((id) => ({ value: id, label: t("geral.visibility.groupsHiddenForUsers.unknown", { id }) })),
            ]}
          />
          <FieldError id="groups-hidden-users" message={groupsError} />
        </div>
      </SettingRow>
      {SWITCHES.slice(3).map(({ key, id }) => (
        <SwitchRow key={key} id={id} label={t(`geral.visibility.${key}.label`)} hint={t(`geral.visibility.${key}.hint`)} checked={get(key)} busy={saving === key} onChange={(on) => void save(key, on)} />
      ))}
    </SettingsGroup>
  );
}
