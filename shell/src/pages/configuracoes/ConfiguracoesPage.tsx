// Work in progress: replaced by the page's implementation.
export default function ConfiguracoesPage() {
  return <div data-page="ConfiguracoesPage">ConfiguracoesPage</div>;
}
