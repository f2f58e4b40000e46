// Work in progress: replaced by the page's implementation.
export default function FilasPage() {
  return <div data-page="FilasPage">FilasPage</div>;
}
