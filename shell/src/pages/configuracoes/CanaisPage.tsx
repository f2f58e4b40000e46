// Work in progress: replaced by the page's implementation.
export default function CanaisPage() {
  return <div data-page="CanaisPage">CanaisPage</div>;
}
