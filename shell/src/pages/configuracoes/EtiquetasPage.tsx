// Work in progress: replaced by the page's implementation.
export default function EtiquetasPage() {
  return <div data-page="EtiquetasPage">EtiquetasPage</div>;
}
