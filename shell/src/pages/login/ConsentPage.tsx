import { useEffect, useState } from "react";
import { observer } from "mobx-react-lite";
import { useRoot } from "../../app/context";
import { PublicFrame } from "./PublicFrame";
import { SignedIn } from "./TermsPage";
import { endRefused, redirectParam } from "./flow";
import { Spinner } from "./parts";

const ITEMS = ["access", "history", "sharing", "rights"] as const;

/**
 * /lgpd-consent?redirect=… (spec §2, §4): the user's privacy consent. Agreeing records it and
 * goes to the wanted page; refusing ends the session (the core revokes it).
 */
const ConsentPage = observer(function ConsentPage() {
  const root = useRoot();
  const s = root.session;
  const t = (k: string, v?: Record<string, unknown>) => root.t(k, v);
  const [target] = useState(redirectParam);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!s.loggedIn) root.navigate("/login");
    else if (s.usuario?.lgpdAccepted === true) root.navigate(target);
  }, []);

  const answer = async (accepted: boolean) => {
    setBusy(true);
    try {
      await root.api.put(`/users/${s.userId}/lgpd-consent`, { accepted });
      if (!accepted) return void (await endRefused(root, t("login.consent.refusedTitle"), t("login.consent.refusedDetail")));
      s.setUser({ lgpdAccepted: true });
      root.navigate(target);
    } catch {
      setBusy(false);
    }
  };

  return (
    <PublicFrame page="ConsentPage">
      <div className="oa-pub-form" data-testid="consent">
        <div className="oa-pub-icon oa-pub-icon-ok" aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24">
            <path fill="currentColor" d="M12 1L3 5v6c0 5.6 3.8 10.7 9 12 5.2-1.3 9-6.4 9-12V5zm-1.5 15.5L6 12l1.4-1.4 3.1 3.1 6.1-6.1L18 9z" />
          </svg>
        </div>
        <h1>{t("login.consent.title")}</h1>
        <p className="oa-pub-sub">{t("login.consent.subtitle")}</p>
        <ul className="oa-consent-list">
          {ITEMS.map((k) => (
            <li key={k}>{t(`login.consent.items.${k}`)}</li>
          ))}
        </ul>
        {confirming ? (
          <div className="oa-confirm" role="alertdialog" aria-label={t("login.consent.reject")}>
            <p>{t("login.consent.rejectConfirm")}</p>
            <div className="oa-pub-actions">
              <button type="button" className="oa-pub-btn oa-pub-btn-ghost" onClick={() => setConfirming(false)} disabled={busy}>
                {t("login.confirmNo")}
              </button>
              <button type="button" className="oa-pub-btn oa-pub-btn-danger" onClick={() => answer(false)} disabled={busy} data-testid="consent-reject-confirm">
                {busy ? <Spinner /> : null}
                {t("login.consent.reject")}
              </button>
            </div>
          </div>
        ) : (
          <div className="oa-pub-actions">
            <button type="button" className="oa-pub-btn oa-pub-btn-ghost" onClick={() => setConfirming(true)} disabled={busy} data-testid="consent-reject">
              {t("login.consent.reject")}
            </button>
            <button type="button" className="oa-pub-btn" onClick={() => answer(true)} disabled={busy} data-testid="consent-accept">
              {busy ? <Spinner /> : null}
              {t("login.consent.accept")}
            </button>
          </div>
        )}
        <SignedIn />
      </div>
    </PublicFrame>
  );
});

export default ConsentPage;
