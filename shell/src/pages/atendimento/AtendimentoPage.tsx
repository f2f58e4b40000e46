// Work in progress: replaced by the page's implementation.
export default function AtendimentoPage() {
  return <div data-page="AtendimentoPage">AtendimentoPage</div>;
}
