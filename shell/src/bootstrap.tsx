import { createRoot } from "react-dom/client";
import { App, createRouter } from "./app/App";
import { RootStore } from "./app/root";
import "./ui/base.css";

const root = new RootStore();
const router = createRouter();
root.navigate = (path) => void router.navigate(path);
void root.loadFrontConfig();
void root.startSession();
// For browser tests and debugging: the stores of this page.
(window as unknown as { __openatende?: RootStore }).__openatende = root;

createRoot(document.getElementById("root")!).render(<App root={root} router={router} />);
