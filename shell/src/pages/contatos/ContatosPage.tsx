// Work in progress: replaced by the page's implementation.
export default function ContatosPage() {
  return <div data-page="ContatosPage">ContatosPage</div>;
}
