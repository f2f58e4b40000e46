import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { createHashRouter, Navigate, Outlet, RouterProvider } from "react-router-dom";
import { I18nextProvider } from "react-i18next";
import { RootContext } from "./context";
import { RequireAuth, PathGate } from "./guards";
import { Notifier } from "./Notifier";
import NotFound from "./NotFound";
import { PluginPage } from "./PluginPage";
import { PUBLIC_PAGES } from "./public-routes";
import type { RootStore } from "./root";

type Loader = () => Promise<{ default: ComponentType }>;
const page = (load: Loader) => {
  const C = lazy(load);
  return <C />;
};

function Loading() {
  return <div className="oa-page-loading" aria-busy="true" />;
}

/** Main area: the layout brings the UI kit. */
const MainLayout = lazy(() => import("../pages/layout/MainLayout"));

function Shell({ children }: { children: ReactNode }) {
  return (
    <>
      <Suspense fallback={<Loading />}>{children}</Suspense>
      <Notifier />
    </>
  );
}

export function createRouter() {
  return createHashRouter([
    { path: "/", element: <Navigate to="/home" replace /> },
    // Public pages (app/public-routes.ts): plain React and CSS, no UI kit, so /login stays small.
    ...Object.entries(PUBLIC_PAGES).map(([path, load]) => ({ path, element: <Shell>{page(load)}</Shell> })),
    {
      element: (
        <Shell>
          <RequireAuth>
            {/* The gates sit inside the layout: a refused path keeps the menu on screen while going back to /home. */}
            <MainLayout>
              <PathGate>
                <Suspense fallback={<Loading />}>
                  <Outlet />
                </Suspense>
              </PathGate>
            </MainLayout>
          </RequireAuth>
        </Shell>
      ),
      children: [
        { path: "/home", element: page(() => import("../pages/home/HomePage")) },
        {
          path: "/atendimento",
          element: page(() => import("../pages/atendimento/AtendimentoPage")),
          children: [
            { index: true, element: null },
            { path: "chats", element: null },
            { path: "contatos", element: null },
            { path: ":ticketId", element: null },
          ],
        },
        { path: "/contatos", element: page(() => import("../pages/contatos/ContatosPage")) },
        { path: "/mensagens-rapidas", element: page(() => import("../pages/mensagens-rapidas/MensagensRapidasPage")) },
        {
          path: "/configuracoes",
          element: page(() => import("../pages/configuracoes/ConfiguracoesPage")),
          children: [
            { index: true, element: <Navigate to="usuarios" replace /> },
            { path: "geral", element: page(() => import("../pages/configuracoes/geral/GeralPage")) },
            { path: "usuarios", element: page(() => import("../pages/configuracoes/UsuariosPage")) },
            { path: "filas", element: page(() => import("../pages/configuracoes/FilasPage")) },
            { path: "etiquetas", element: page(() => import("../pages/configuracoes/EtiquetasPage")) },
            { path: "canais", element: page(() => import("../pages/configuracoes/CanaisPage")) },
            // Time (spec §3): the tenant's own hours, hours by queue / user / connection with holidays and smart close, users' availability.
            { path: "horario", element: page(() => import("../pages/configuracoes/tempo/HorarioPage")) },
            { path: "business-hours", element: page(() => import("../pages/configuracoes/tempo/BusinessHoursPage")) },
            { path: "horarios", element: page(() => import("../pages/configuracoes/tempo/HorariosPage")) },
            // The master admin's (PathGate refuses anyone else).
            { path: "globais", element: page(() => import("../pages/configuracoes/globais/GlobaisPage")) },
            // Quick messages left settings for the main area (spec §2): old links land there.
            { path: "mensagens-rapidas", element: <Navigate to="/mensagens-rapidas" replace /> },
            // A plugin's settings section (runtime.addSettingsSection), or not found.
            { path: "*", element: page(() => import("../plugins/slots").then((m) => ({ default: m.PluginSettingsSection }))) },
          ],
        },
        { path: "/modulos", element: page(() => import("../pages/modulos/ModulosPage")) },
        { path: "/marketplace", element: page(() => import("../pages/marketplace/MarketplacePage")) },
        { path: "/empresas", element: page(() => import("../pages/empresas/EmpresasPage")) },
        // Routes the enabled plugins' remotes add; anything else is not found.
        { path: "*", element: <PluginPage /> },
      ],
    },
  ]);
}

export function App({ root, router }: { root: RootStore; router: ReturnType<typeof createRouter> }) {
  return (
    <RootContext.Provider value={root}>
      <I18nextProvider i18n={root.i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </RootContext.Provider>
  );
}
