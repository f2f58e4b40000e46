import { useEffect, useState } from "react";
import { observer } from "mobx-react-lite";
import { useRoot } from "../../app/context";
import type { StoredTenant } from "../../stores/session";
import { PublicFrame } from "./PublicFrame";
import { endRefused, nextStep, redirectParam } from "./flow";
import { Spinner } from "./parts";

const SECTIONS = ["service", "duties", "data", "end"] as const;

/**
 * /terms-of-use (spec §2, §4): the tenant admin accepts or rejects the platform's terms. A
 * paid system accepts them without asking; terms already accepted go on to the consent.
 * Rejecting ends the session (the core revokes it).
 */
const TermsPage = observer(function TermsPage() {
  const root = useRoot();
  const s = root.session;
  const t = (k: string, v?: Record<string, unknown>) => root.t(k, v);
  const [target] = useState(redirectParam);
  const [phase, setPhase] = useState<"checking" | "ask" | "confirm">("checking");
  const [agree, setAgree] = useState(false);
  const [busy, setBusy] = useState(false);

  const answer = async (accepted: boolean, auto = false) => {
    setBusy(true);
    try {
      const r = await root.api.put<Partial<StoredTenant>>(`/tenants/${s.tenantId}/terms-acceptance`, { accepted }, { silent: auto });
      if (!accepted) return void (await endRefused(root, t("login.terms.rejectedTitle"), t("login.terms.rejectedDetail")));
      s.setTenant({ ...s.tenant!, termsAccepted: true, termsAcceptedAt: r?.termsAcceptedAt ?? new Date().toISOString() });
      root.navigate(nextStep(root, target));
    } catch {
      setBusy(false);
      setPhase("ask");
    }
  };

  useEffect(() => {
    if (!s.loggedIn) return root.navigate("/login");
    if (!(s.isAdmin && s.tenant && !s.tenant.termsAccepted)) return root.navigate(nextStep(root, target));
    let live = true;
    (async () => {
      try {
        const r = await root.api.get<{ isPaidSystem: boolean }>("/settings/check-paid-system", { silent: true });
        if (live && r.isPaidSystem) return void (await answer(true, true));
      } catch {
        /* asked below */
      }
      if (live) setPhase("ask");
    })();
    return () => {
      live = false;
    };
  }, []);

  return (
    <PublicFrame page="TermsPage">
      {phase === "checking" ? (
        <div className="oa-pub-form oa-pub-checking" aria-busy="true">
          <Spinner />
          <span>{t("login.terms.checking")}</span>
        </div>
      ) : (
        <div className="oa-pub-form" data-testid="terms">
          <h1>{t("login.terms.title")}</h1>
          <p className="oa-pub-sub">{t("login.terms.subtitle")}</p>
          <div className="oa-doc" tabIndex={0}>
            {SECTIONS.map((k) => (
              <section key={k}>
                <h3>{t(`login.terms.sections.${k}Title`)}</h3>
                <p>{t(`login.terms.sections.${k}`)}</p>
              </section>
            ))}
            {root.frontConfig.termsUrl ? (
              <a href={root.frontConfig.termsUrl} target="_blank" rel="noopener noreferrer" className="oa-pub-link">
                {t("login.terms.readFull")} ↗
              </a>
            ) : null}
          </div>
          {phase === "confirm" ? (
            <div className="oa-confirm" role="alertdialog" aria-label={t("login.terms.reject")}>
              <p>{t("login.terms.rejectConfirm")}</p>
              <div className="oa-pub-actions">
                <button type="button" className="oa-pub-btn oa-pub-btn-ghost" onClick={() => setPhase("ask")} disabled={busy}>
                  {t("login.confirmNo")}
                </button>
                <button type="button" className="oa-pub-btn oa-pub-btn-danger" onClick={() => answer(false)} disabled={busy} data-testid="terms-reject-confirm">
                  {busy ? <Spinner /> : null}
                  {t("login.terms.reject")}
                </button>
              </div>
            </div>
          ) : (
            <>
              <label className="oa-check">
                <input type="checkbox" checked={agree} onChange={(e) => setAgree(e.target.checked)} data-testid="terms-agree" />
                <span>{t("login.terms.agree")}</span>
              </label>
              <div className="oa-pub-actions">
                <button type="button" className="oa-pub-btn oa-pub-btn-ghost" onClick={() => setPhase("confirm")} disabled={busy} data-testid="terms-reject">
                  {t("login.terms.reject")}
                </button>
                <button type="button" className="oa-pub-btn" onClick={() => answer(true)} disabled={!agree || busy} data-testid="terms-accept">
                  {busy ? <Spinner /> : null}
                  {t("login.terms.accept")}
                </button>
              </div>
            </>
          )}
          <SignedIn />
        </div>
      )}
    </PublicFrame>
  );
});

/** Who is answering, and a way out to another account. */
export const SignedIn = observer(function SignedIn() {
  const root = useRoot();
  return (
    <p className="oa-pub-who">
      {root.t("login.signedInAs", { name: root.session.username })} ·{" "}
      <button type="button" className="oa-pub-link" onClick={() => void root.logout()}>
        {root.t("login.otherAccount")}
      </button>
    </p>
  );
});

export default TermsPage;
