// Work in progress: replaced by the page's implementation.
export default function MensagensRapidasPage() {
  return <div data-page="MensagensRapidasPage">MensagensRapidasPage</div>;
}
